# chat-service container: `docker build -t chat-service .`, or `docker compose up` (compose.yaml).
# Checked without Docker by `npm run container:check` (scripts/container-check.mjs), which runs this
# file's runtime stage layout, CMD and HEALTHCHECK; keep the two in step.

# Build stage: every dependency, compile src/ to dist/.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are here; the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY src src
RUN npm run build

# Runtime stage: production dependencies, dist/ and bin/ only, as the unprivileged `node` user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY bin bin
# `docker compose exec chat-1 chat-service account create`: the CLI on the PATH.
RUN ln -s /app/bin/chat-service.js /usr/local/bin/chat-service
# The embedded PGlite database, when DATABASE_URL is not set.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) shuts down gracefully: in-flight requests finish, then exit 0.
CMD ["node", "bin/chat-service.js", "serve"]
