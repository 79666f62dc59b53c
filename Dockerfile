# Production image: the API only; point MONGODB_URI at a MongoDB replica set or Atlas (required: the image
# has no embedded database, neither the stand-in nor mongodb-memory-server, which are dev dependencies).
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The one workspace package the API runs with; packages/mongo-standin stays out.
COPY packages/geojson-sphere ./packages/geojson-sphere
# The driver's mend (patches/), applied by `npm ci` (postinstall: patch-package).
COPY patches ./patches
RUN npm ci --omit=dev && npm cache clean --force
COPY src ./src
COPY docs ./docs
COPY fixtures ./fixtures
# The import and user CLIs: docker compose exec api npm run import -- … / npm run user -- …
COPY scripts ./scripts
# HSDS_DATA_DIR (default .data): where POST /import keeps NDJSON bodies while it imports them. Mount a
# volume here to keep the embedded database too; it must stay writable by the node user.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
