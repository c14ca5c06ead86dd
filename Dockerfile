# greenfix: Node 22, git, bubblewrap, ripgrep, skopeo and umoci; runs as a non-root user under tini (reaps the
# sandbox's namespace init processes). How to run it, and why each flag: docs/self-hosting-and-docker.md.
#
#   docker build -t greenfix .
#   docker run -p 3000:3000 -v greenfix:/var/lib/greenfix \
#     --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
#     --security-opt systempaths=unconfined greenfix
#
# bubblewrap builds each sandbox from user namespaces and a fresh /proc; Docker's default seccomp
# and AppArmor profiles refuse the first, and its masked /proc paths refuse the second ("Can't mount
# proc on /newroot/proc"). podman: --security-opt unmask=ALL for systempaths=unconfined. Or --privileged.
# Without them `greenfix serve` exits 2 with one line naming the problem.
#
# The first run with no configuration serves the setup page on port 3000: it registers the GitHub
# App and writes the credentials to /var/lib/greenfix/.env, on the volume (GREENFIX_ENV_FILE).
#
# The base image is a tag, not a digest: no registry was reachable where this file is tested, so
# no digest could be read and checked. Pin it for reproducible builds:
#   docker build --build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:<digest> -t greenfix .
# (`docker buildx imagetools inspect node:22-bookworm-slim` prints the digest.)
ARG NODE_IMAGE=node:22-bookworm-slim
FROM ${NODE_IMAGE} AS build
# Toolchain for a from-source build of better-sqlite3 when no prebuilt binary fits, and for the tree
# hash's inotify helper (native/inotify-feed.c → dist/native/inotify-feed, copied with dist/).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make gcc g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY native ./native
COPY scripts/build-native.mjs scripts/bundle-cli.mjs ./scripts/
# `npm ci` runs `prepare`, which builds dist/ (typescript is a dev dependency); then the dev dependencies go.
RUN npm ci && npm prune --omit=dev

FROM ${NODE_IMAGE}
# skopeo and umoci: environment images (a repository's environment.image, devcontainer.json's
# "image", GREENFIX_DEFAULT_IMAGE), pulled by digest and unpacked into /var/lib/greenfix/work/images.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ripgrep util-linux tini ca-certificates skopeo umoci \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# app.yml: the setup page registers the GitHub App from it.
COPY package.json README.md app.yml ./
# `greenfix` on the PATH: `docker run … greenfix greenfix fix --repo /repo --task "…"`.
RUN chmod 755 dist/src/cli/main.js \
 && ln -s /app/dist/src/cli/main.js /usr/local/bin/greenfix \
 && useradd --create-home --uid 10001 greenfix \
 && mkdir -p /var/lib/greenfix/work \
 && chown -R greenfix:greenfix /var/lib/greenfix
USER greenfix
# One volume keeps what must survive a restart: the env file the setup page writes, the SQLite
# queue and journals (a killed job resumes from them) and the mirror cache (no full clone per job).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    GREENFIX_ENV_FILE=/var/lib/greenfix/.env \
    GREENFIX_DB=/var/lib/greenfix/greenfix.db \
    GREENFIX_WORKDIR=/var/lib/greenfix/work
VOLUME ["/var/lib/greenfix"]
EXPOSE 3000
# /healthz answers 200 in setup mode too ({"status":"setup"}). Workers started with
# GREENFIX_ROLE=worker serve no HTTP; they count as healthy while running.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "if (process.env.GREENFIX_ROLE === 'worker') process.exit(0); fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--v8-pool-size=1", "dist/src/cli/main.js", "serve"]
