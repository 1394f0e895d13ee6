"""The plain-array GGUF reader and the reader that transformers' loaders share with ours."""
from __future__ import annotations

import gguf
import numpy as np
import pytest

from engine.gguf_reader import GGUFCheckpoint, PlainArrayGGUFReader, transformers_reads_gguf_once
from tests.engine.gguf_fixtures import write_tiny_gguf


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory):
    path = tmp_path_factory.mktemp("gguf") / "gemma3.gguf"
    write_tiny_gguf(path, "gemma3")
    return path


def test_the_plain_array_reader_reads_what_gguf_reads(tiny_gguf):
    ours, theirs = PlainArrayGGUFReader(tiny_gguf), gguf.GGUFReader(tiny_gguf)
    assert type(ours.data) is np.ndarray and isinstance(theirs.data, np.memmap)
    assert list(ours.fields) == list(theirs.fields)
    for name, field in theirs.fields.items():
        mine = ours.fields[name]
        assert (mine.offset, mine.types, mine.data) == (field.offset, field.types, field.data), name
        assert all(np.array_equal(a, b) for a, b in zip(mine.parts, field.parts, strict=True)), name
    assert [t.name for t in ours.tensors] == [t.name for t in theirs.tensors]
    for mine, tensor in zip(ours.tensors, theirs.tensors):
        assert (mine.tensor_type, mine.data_offset) == (tensor.tensor_type, tensor.data_offset)
        assert np.array_equal(mine.data, tensor.data), tensor.name


def _hello_world_ids(path) -> list[int]:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)("hello world")["input_ids"]


def test_transformers_reads_each_file_once_and_the_reader_is_restored(tiny_gguf, tmp_path):
    from transformers import AutoConfig

    other = tmp_path / "llama.gguf"
    write_tiny_gguf(other, "llama")
    ckpt = GGUFCheckpoint(tiny_gguf)
    original = gguf.GGUFReader
    with transformers_reads_gguf_once(ckpt):
        assert gguf.GGUFReader(tiny_gguf) is ckpt.reader  # the open checkpoint's parse, not a second one
        first = gguf.GGUFReader(str(other))
        assert isinstance(first, PlainArrayGGUFReader) and gguf.GGUFReader(other) is first
        shared_ids = _hello_world_ids(tiny_gguf)
        shared_config = AutoConfig.from_pretrained(tiny_gguf.parent, gguf_file=tiny_gguf.name).to_dict()
    assert gguf.GGUFReader is original
    assert _hello_world_ids(tiny_gguf) == shared_ids
    assert AutoConfig.from_pretrained(tiny_gguf.parent, gguf_file=tiny_gguf.name).to_dict() == shared_config
    with pytest.raises(RuntimeError), transformers_reads_gguf_once():
        raise RuntimeError("a failed load")
    assert gguf.GGUFReader is original
