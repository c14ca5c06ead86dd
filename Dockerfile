# greenfix: Node 22, git, bubblewrap and ripgrep; runs as a non-root user under tini (reaps the
# sandbox's namespace init processes). bubblewrap needs user namespaces: run the container with
# `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` or an equivalent profile.
#
#   docker build -t greenfix .
#   docker run --env-file .env -p 3000:3000 -v greenfix:/var/lib/greenfix \
#     --security-opt seccomp=unconfined --security-opt apparmor=unconfined greenfix
#
# The default command is the GitHub App (`greenfix serve`); the local CLI is the same image:
#   docker run … greenfix node dist/src/cli/main.js fix --repo /repo --task "…"
FROM node:22-bookworm-slim AS build
# Toolchain only for a from-source build of better-sqlite3 when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` runs `prepare`, which builds dist/; then the dev dependencies go.
RUN npm ci && npm prune --omit=dev

FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ripgrep util-linux tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# app.yml: Probot's first-run setup flow reads it from the working directory.
COPY package.json README.md app.yml ./
RUN useradd --create-home --uid 10001 greenfix \
 && mkdir -p /var/lib/greenfix/work \
 && chown -R greenfix:greenfix /var/lib/greenfix
USER greenfix
# One volume keeps what must survive a restart: the SQLite queue and journals (a killed job
# resumes from them) and the mirror cache (no full clone per job).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    GREENFIX_DB=/var/lib/greenfix/greenfix.db \
    GREENFIX_WORKDIR=/var/lib/greenfix/work
VOLUME ["/var/lib/greenfix"]
EXPOSE 3000
# Workers started with GREENFIX_ROLE=worker serve no HTTP; they count as healthy while running.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "if (process.env.GREENFIX_ROLE === 'worker') process.exit(0); fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/cli/main.js", "serve"]
