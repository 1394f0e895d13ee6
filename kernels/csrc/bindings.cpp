// pybind11 with PyTorch's tensor casters: <torch/extension.h> (all of libtorch's C++ API) took 45 s to
// compile, this 21 s.
#include <torch/csrc/utils/pybind.h>

#include "cpu_kernels.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("paged_decode_attention", &paged_decode_attention, "Paged decode attention, read in place");
  m.def("paged_prefill_attention", &paged_prefill_attention,
        "Paged prefill attention, read in place; a row's result depends only on its position and the cache");
  m.def("w8a8_matmul", &w8a8_matmul, "int8 x int8 matmul with group-wise scales, activations quantized per group",
        py::arg("x"), py::arg("packed"), py::arg("packed_scale"), py::arg("out_features"), py::arg("act_group"), py::arg("bias"),
        py::arg("portable") = false, py::arg("out") = py::none());
  m.def("amx_matmul_available", &amx_matmul_available, "Whether amx_matmul runs here (AMX bf16 tiles, granted by the OS)");
  m.def("amx_matmul", &amx_matmul, "The packed int8 weight dequantized to bf16, times bf16-rounded x, on AMX tiles (for many rows)",
        py::arg("x"), py::arg("packed"), py::arg("packed_scale"), py::arg("out_features"), py::arg("bias"), py::arg("out") = py::none());
  m.def("argmax_rows", &argmax_rows, "Row-wise first index of the maximum of fp32 logits (NaN counts as the maximum)");
  m.def("argmax_rows_penalized", &argmax_rows_penalized,
        "argmax_rows after a repetition penalty on each row's seen ids (CSR), logits left unchanged");
  m.def("store_kv", &store_kv, "Write K/V rows into their cache slots (slots < 0 skipped), converted to the cache dtype");
  m.def("act_and_mul", &act_and_mul, "act(gate) * up of [gate | up] rows; act 0: tanh GELU, 1: SiLU");
  m.def("qk_norm_rope", &qk_norm_rope, "Q/K RMSNorm (optional) and RoPE of a fused QKV projection: [q, k]");
  m.def("rms_norm", &rms_norm, "RMSNorm with an optional fused residual add: [y] or [y, x + residual]");
}
