# supportdesk: the API, the web UI and the engine in one image, with the packaged Gemma 3 270M converted
# at build time so containers start warm.
#
#   CPU (default):  docker build -t supportdesk .
#   NVIDIA GPU:     docker build -t supportdesk:cuda \
#                     --build-arg BASE_IMAGE=nvidia/cuda:12.8.1-cudnn-runtime-ubuntu22.04 \
#                     --build-arg TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128 .
#   With Ray Serve: --build-arg EXTRAS=ray (every node of a Ray cluster runs this image)
#
# tests/test_dockerfile.py checks this file's contract and runs its convert and health-check commands.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

# The CPU build of torch by default; a CUDA index for GPU images. torch==2.13.0 matches 2.13.0+cpu there.
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
ARG EXTRAS=""

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    SUPPORTDESK_CACHE_DIR=/home/app/.cache/supportdesk \
    SUPPORTDESK_DATA_DIR=/var/lib/supportdesk

# python:3.11-slim has Python 3.11; the CUDA images (Ubuntu 22.04) get it from Ubuntu's universe, at the
# version that base ships (pinning one would break the other bases). g++ builds the C++ CPU kernels
# (kernels/csrc), once, in `supportdesk convert` below.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && if ! command -v python3.11 >/dev/null; then \
        apt-get install -y --no-install-recommends python3.11 python3.11-venv python3.11-dev; \
    fi \
    && rm -rf /var/lib/apt/lists/* \
    && python3.11 -m venv /opt/venv \
    && groupadd --gid 10001 app \
    && useradd --create-home --uid 10001 --gid 10001 --shell /usr/sbin/nologin app \
    && install -d -o 10001 -g 10001 "${SUPPORTDESK_DATA_DIR}"

WORKDIR /app
COPY --chown=root:root . /app
# Editable: the knowledge base (data/) lives beside the packages, at the repository's root.
RUN pip install --no-cache-dir --extra-index-url "${TORCH_INDEX_URL}" -e ".${EXTRAS:+[${EXTRAS}]}"

USER 10001:10001
# The int8 checkpoint and tokenizer, into the app user's cache: containers start warm.
RUN supportdesk convert

# The SQLite store (conversations, metrics); or point DATABASE_URL at PostgreSQL.
VOLUME ["/var/lib/supportdesk"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ.get('HEALTHCHECK_URL', 'http://127.0.0.1:8000/readyz'), timeout=4)"]
CMD ["supportdesk", "serve", "--host", "0.0.0.0", "--port", "8000"]
