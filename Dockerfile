# The intake gateway (src/gateway/) as a container: `npm run gateway` on Node 22, as the unprivileged `node` user.
# Build: docker build -t echo-archive-gateway .     Run one instance (SQLite in the volume):
#   docker run --init -p 8787:8787 -v echo-gateway:/var/lib/echo-gateway -e SITE_URL=… -e GATEWAY_URL=… echo-archive-gateway
# Several instances on PostgreSQL behind a proxy: compose.yaml. Operations: docs/gateway-operations.md.

# Dependencies without the dev tools (no Astro, no test runner, no Node download).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    GATEWAY_DATA_DIR=/var/lib/echo-gateway
WORKDIR /app
# The gateway reads the core's schemas and documents at run time; nothing else of the site is needed.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY schemas ./schemas
COPY documents ./documents
COPY src/core ./src/core
COPY src/gateway ./src/gateway
RUN mkdir -p /var/lib/echo-gateway && chown node:node /var/lib/echo-gateway
USER node
VOLUME ["/var/lib/echo-gateway"]
EXPOSE 8787
# /healthz answers 200 when the gateway serves and its store answers (503 otherwise). No curl in the slim image:
# Node's own fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["npm", "run", "gateway"]
