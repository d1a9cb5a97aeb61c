# A toolrail worker image: the compiled CLI, worker and examples (`npm run build` → dist/), run with plain node.
#   docker build -t toolrail-worker .
#   docker run -e TEMPORAL_ADDRESS=host:7233 toolrail-worker worker --module dist/examples/support-desk/worker-module.js
# docker-compose.yml runs it as the `worker` service; the production test tier (test/production)
# lays out the same files and runs the same command and environment.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# Where `toolrail worker` keeps its health file, relative to /app: `toolrail worker --health` (the
# compose health check) reads it and asks the server for the worker's pollers.
ENV TOOLRAIL_WORKER_HEALTH_FILE=.toolrail/worker-health.json
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# The default content store (.toolrail/content) and the health file must be writable by the worker's user.
RUN mkdir -p /app/.toolrail && chown node /app/.toolrail
USER node
ENTRYPOINT ["node", "bin/toolrail.cjs"]
CMD ["worker", "--help"]
