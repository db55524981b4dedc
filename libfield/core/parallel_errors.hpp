#pragma once
/// An exception that leaves an OpenMP parallel region ends the program (std::terminate). Loops
/// whose body can throw (e.g. lie::cay_inv of a half turn) run it through guard(index, body) and
/// call rethrow() after the region: the exception of the lowest index is thrown, whatever the
/// thread count, and the other iterations still run.
#include <exception>

namespace field {

class ParallelErrors {
 public:
  template <class Body>
  void guard(long long index, Body&& body) noexcept {
    try {
      body();
    } catch (...) {
#pragma omp critical(field_parallel_errors)
      {
        if (!error_ || index < index_) {
          error_ = std::current_exception();
          index_ = index;
        }
      }
    }
  }
  /// Throws the captured exception of the lowest index, if any.
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::exception_ptr error_;
  long long index_ = 0;
};

}  // namespace field
