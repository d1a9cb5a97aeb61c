# A toolrail worker image: the repository's sources run with tsx (no build step).
#   docker build -t toolrail-worker .
#   docker run -e TEMPORAL_ADDRESS=host:7233 toolrail-worker worker --module examples/support-desk/worker-module.ts
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY examples ./examples
COPY tsconfig.json ./
USER node
ENTRYPOINT ["node", "bin/toolrail.cjs"]
CMD ["worker", "--help"]
