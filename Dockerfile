# syntax=docker/dockerfile:1
# Build stage: full dependencies, compile TypeScript, bundle the playground (web/ -> dist/web).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The typed client is an npm workspace: npm ci needs its package.json (and the build compiles it).
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY clients ./clients
COPY src ./src
COPY bench ./bench
COPY scripts ./scripts
COPY web ./web
RUN npm run build

# Runtime stage: production dependencies and compiled output only, unprivileged user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/web ./dist/web
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# node as PID 1 handles SIGTERM itself (graceful shutdown in src/server.ts).
CMD ["node", "dist/src/server.js"]
