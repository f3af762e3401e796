# One image for every service; docker-compose.yml picks the entry point. The apps run as esbuild bundles.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/partner-api/package.json apps/partner-api/
COPY apps/usage-api/package.json apps/usage-api/
COPY apps/metering-worker/package.json apps/metering-worker/
COPY apps/webhook-worker/package.json apps/webhook-worker/
COPY apps/booking-worker/package.json apps/booking-worker/
COPY apps/mail-worker/package.json apps/mail-worker/
COPY apps/operator-api/package.json apps/operator-api/
COPY apps/console/package.json apps/console/
COPY apps/booking-page/package.json apps/booking-page/
COPY packages/config/package.json packages/config/
COPY packages/contracts/package.json packages/contracts/
COPY packages/db/package.json packages/db/
COPY packages/domain/package.json packages/domain/
COPY packages/file-store/package.json packages/file-store/
COPY packages/http/package.json packages/http/
COPY packages/logging/package.json packages/logging/
COPY packages/metrics/package.json packages/metrics/
COPY packages/publisher/package.json packages/publisher/
COPY packages/shutdown/package.json packages/shutdown/
COPY packages/use-cases/package.json packages/use-cases/
COPY packages/webhooks/package.json packages/webhooks/
COPY packages/test-apps/package.json packages/test-apps/
COPY packages/testkit/package.json packages/testkit/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY apps apps
COPY packages packages
COPY scripts scripts
RUN node scripts/build-apps.mjs && npm prune --omit=dev --no-audit --no-fund
USER node
CMD ["node", "apps/partner-api/dist/server.js"]
