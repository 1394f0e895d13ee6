#include <torch/extension.h>

#include "cpu_kernels.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("paged_decode_attention", &paged_decode_attention, "Paged decode attention, read in place");
  m.def("quantize_rows", &quantize_rows, "int8 rows, each by its own absolute maximum: (q, step)");
  m.def("scale_rows_", &scale_rows_, "out * col_scale * row_step (+ bias), in place");
}
