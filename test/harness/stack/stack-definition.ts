import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The repository's root. */
export const repoRoot = path.resolve(__dirname, '../../..');

/** One service of docker-compose.yml, its `${VAR}`s replaced by the values of the example env file. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
}

/** What the stack runs: the example env file, the compose services, and the image's final stage. */
export interface StackDefinition {
  /** `.env.example`: the versions, names and (placeholder) passwords compose reads from `.env`. */
  env: Record<string, string>;
  services: Record<string, ComposeService>;
  image: DockerImage;
}

/** The Dockerfile's final stage: its working directory, environment, entrypoint and what it copies. */
export interface DockerImage {
  workdir: string;
  env: Record<string, string>;
  entrypoint: string[];
  /** The paths the final stage copies from the build stage, relative to its working directory. */
  copied: string[];
}

/** Reads `.env.example`, `docker-compose.yml` (interpolated with it) and the Dockerfile. */
export function readStackDefinition(root = repoRoot): StackDefinition {
  const env = parseEnvFile(readFileSync(path.join(root, '.env.example'), 'utf8'));
  const compose = parse(interpolate(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), env)) as {
    services: Record<string, ComposeService>;
  };
  for (const service of Object.values(compose.services)) {
    // Compose accepts numbers in `environment`; processes get strings.
    if (service.environment) {
      service.environment = Object.fromEntries(
        Object.entries(service.environment).map(([key, value]) => [key, String(value)]),
      );
    }
  }
  return {
    env,
    services: compose.services,
    image: readDockerImage(readFileSync(path.join(root, 'Dockerfile'), 'utf8')),
  };
}

/** `KEY=VALUE` lines; blank lines and `#` comments are skipped (no quoting: the values are plain words). */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match?.[1] || match[2] === undefined) throw new Error(`not a KEY=VALUE line in the env file: ${trimmed}`);
    env[match[1]] = match[2];
  }
  return env;
}

/**
 * Compose's interpolation of the forms the compose file uses: `${VAR}`, `${VAR:?message}` (an
 * error when VAR is unset or empty), `${VAR:-default}`, and `$$` for a literal `$`.
 */
export function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?::([?-])([^}]*))?\}/g,
    (whole, name?: string, kind?: string, arg?: string) => {
      if (whole === '$$') return '$';
      const value = env[name ?? ''];
      if (value !== undefined && value !== '') return value;
      if (kind === '?') throw new Error(`${name} is not set: ${arg}`);
      if (kind === '-') return arg ?? '';
      if (value === undefined) throw new Error(`${name} is not set in the env file`);
      return value;
    },
  );
}

/** The final stage of a Dockerfile (after its last `FROM`). */
export function readDockerImage(dockerfile: string): DockerImage {
  const stages = dockerfile.split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  const image: DockerImage = { workdir: '/', env: {}, entrypoint: [], copied: [] };
  for (const line of last.split('\n')) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    const argument = line
      .trim()
      .slice((instruction ?? '').length)
      .trim();
    if (instruction === 'WORKDIR') image.workdir = argument;
    if (instruction === 'ENV') {
      const [key, ...value] = argument.split('=');
      if (key) image.env[key] = value.join('=');
    }
    if (instruction === 'ENTRYPOINT') image.entrypoint = JSON.parse(argument) as string[];
    if (instruction === 'COPY' && rest.some((word) => word.startsWith('--from='))) {
      const sources = rest.filter((word) => !word.startsWith('--')).slice(0, -1);
      image.copied.push(...sources.map((source) => path.posix.relative(image.workdir, source)));
    }
  }
  return image;
}
