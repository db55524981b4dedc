#pragma once
#include "libfield/io/case_file.hpp"

namespace field::python {

/// The bytes a run held in memory keeps per node of its (J + 1) x (A + 1) field: the recorded
/// pose (march::FieldRecorder) and the arrays of docs/python.md ("What a run holds"): poses 16,
/// positions 3, quaternions 4, velocities 6, strains 6, stresses 6 doubles.
double field_bytes_per_node();

/// Raises MemoryError, before anything is allocated, when the run of `spec` with its whole field
/// as arrays would not fit in the available memory (io::estimate_memory, docs/cli.md "Memory"):
/// the message names the case, both sizes and what to do.
void check_run_memory(const io::CaseSpec& spec);

}  // namespace field::python
