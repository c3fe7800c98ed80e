# syntax=docker/dockerfile:1
# Breakwater: one image for every process (dashboard, lean SDK API server, worker, migrations).
# The container picks its role through its command (see docker-compose.yml).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
# Offline hygiene: no telemetry or update checks from Next, turbo or Prisma; no browser download.
ENV NEXT_TELEMETRY_DISABLED=1 \
    TURBO_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1 \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# ── dependencies: manifests first, so `npm ci` is cached until a dependency changes ──────────────
FROM base AS deps
COPY package.json package-lock.json ./
COPY apps/web/package.json apps/web/
COPY apps/worker/package.json apps/worker/
COPY packages/api/package.json packages/api/
COPY packages/client/package.json packages/client/
COPY packages/config/package.json packages/config/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/manage/package.json packages/manage/
COPY packages/queue/package.json packages/queue/
COPY packages/wire/package.json packages/wire/
COPY tooling/package.json tooling/
# npm ci's postinstall generates the Prisma client through packages/db's offline wrapper (the Wasm
# schema engine instead of a downloaded native one), which needs the schema and the config parser.
COPY prisma.config.ts tsconfig.base.json ./
COPY prisma ./prisma
COPY packages/config/src packages/config/src
COPY packages/db/scripts packages/db/scripts
RUN npm ci --no-audit --no-fund

# ── build: the Next.js production build, the lean SDK API server and worker bundles ──────────────
FROM deps AS build
COPY . .
# The build evaluates server modules in production mode, where the config requires AUTH_SECRET;
# this placeholder exists only in this build step (runtime gets the real secret from the env).
RUN AUTH_SECRET=build-only-placeholder-not-used-at-runtime-0000 \
    npx turbo run build --filter=@breakwater/web --filter=@breakwater/wire --filter=@breakwater/worker

# ── runtime ───────────────────────────────────────────────────────────────────────────────────────
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SDK_PORT=3001 \
    WORKER_HEALTH_PORT=3002
# The worker runs from its bundle (apps/worker/dist/worker.mjs, plain node); migrations and the CLI
# run TypeScript through tsx, so the workspace (sources and dependencies) ships as built.
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000 3001 3002
# Default role: the dashboard (apps/web/server.mjs: the SDK API answered in-process, Next.js in a child process, each request's peer recorded) on $PORT.
CMD ["sh", "-c", "exec npm run -s -w @breakwater/web start -- --port \"$PORT\" --hostname \"$HOST\""]
