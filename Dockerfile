# deepsearch serve in a container. Build stage: TypeScript and the native SQLite module are
# compiled with the toolchain; the final stage has neither the toolchain nor dev dependencies
# and runs as the unprivileged `node` user. The full local stack (SearXNG, Ollama): compose.yaml.
# The variant with the embedded model's runtime (node-llama-cpp, CPU build; llm.provider
# "local-embedded", models pulled into the /data volume):
#   docker build --build-arg EMBEDDED_MODEL=true -t deepsearch:embedded .
FROM node:20-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-web.mjs scripts/build-cli.mjs ./scripts/
COPY src ./src
RUN npm run build && npm prune --omit=dev
ARG EMBEDDED_MODEL=false
COPY scripts/install-embedded-runtime.sh ./scripts/install-embedded-runtime.sh
RUN mkdir -p .embedded-runtime \
  && if [ "$EMBEDDED_MODEL" = "true" ]; then bash scripts/install-embedded-runtime.sh; fi

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DEEPSEARCH_HOST=0.0.0.0 \
    DEEPSEARCH_PORT=3000 \
    XDG_DATA_HOME=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.embedded-runtime ./.embedded-runtime
COPY --from=build /app/dist ./dist
# --build-arg WITH_CHROMIUM=1: Debian's chromium for the browser reader (pages whose text scripts
# write) and the PDF export of reports, about 300 MB more; found at /usr/bin/chromium.
ARG WITH_CHROMIUM=0
RUN if [ "$WITH_CHROMIUM" = 1 ]; then \
    apt-get update \
    && apt-get install -y --no-install-recommends chromium \
    && rm -rf /var/lib/apt/lists/*; \
  fi
# The cache database and the host-health file live in /data (a volume), owned by the runtime user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.DEEPSEARCH_PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
