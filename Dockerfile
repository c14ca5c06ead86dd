# greenfix: Node 22, git and bubblewrap; runs as a non-root user under tini (reaps the sandbox's
# namespace init processes). bubblewrap needs user namespaces: run the container with
# `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` or an equivalent profile.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
RUN npm ci && npm prune --omit=dev

FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ripgrep util-linux tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json README.md ./
RUN useradd --create-home --uid 10001 greenfix && mkdir -p /var/lib/greenfix && chown greenfix /var/lib/greenfix
USER greenfix
ENV GREENFIX_WORKDIR=/var/lib/greenfix NODE_ENV=production
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/cli/main.js"]
CMD ["--help"]
