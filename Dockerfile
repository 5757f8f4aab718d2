# syntax=docker/dockerfile:1
# Three targets from one file:
#   builder  - the full toolchain: builds the site and post index into $DIST_DIR (a shared volume)
#   service  - the Express service on a slim Node 24 image, production dependencies only, non-root
# The static files themselves are served by nginx from the shared volume (see docker-compose.yml).

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/postinstall.ts ./scripts/
# A clean install from the committed lockfile.
RUN npm ci && npm cache clean --force

FROM deps AS builder
COPY astro.config.mjs tsconfig.json ./
COPY site ./site
COPY scripts ./scripts
COPY bin/build.js bin/build.ts bin/compile-cache.js bin/publish-scheduled.ts ./bin/
COPY model ./model
COPY post-index ./post-index
COPY auth-service ./auth-service
COPY content ./content
ENV CONTENT_DIR=/content DIST_DIR=/srv/dist ASTRO_TELEMETRY_DISABLED=1
RUN mkdir -p /srv/dist && chown node:node /srv/dist /app
USER node
CMD ["node", "bin/build.js"]

FROM node:24-bookworm-slim AS service
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321 DIST_DIR=/srv/dist DATA_DIR=/var/lib/lattice
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY model ./model
COPY post-index ./post-index
COPY auth-service ./auth-service
RUN mkdir -p /var/lib/lattice && chown node:node /var/lib/lattice
USER node
EXPOSE 4321
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "auth-service/server.ts"]
