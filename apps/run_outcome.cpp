#include "apps/run_outcome.hpp"

#include <csignal>
#include <cstdio>

#include "apps/commands.hpp"
#include "apps/interrupt.hpp"

namespace field::app {

namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// Why Newton failed and what to change (march/newton_diagnosis.hpp).
std::string newton_advice(const march::MarchFailure& f, const MarchWords& w,
                          const std::string& warning, double tolerance, int max_iterations) {
  switch (f.kind) {
    case march::FailureKind::iteration_limit:
      if (f.iterations_needed <= max_iterations)  // the march's start or kernel, not the limit
        return format(
            "From the node's previous solution Newton converges in %d iterations; from the "
            "march's start it did not: try a smaller %s or a larger [solver] max_iterations.",
            f.iterations_needed, w.step);
      return format(
          "Newton was still converging when it reached [solver] max_iterations = %d (from the "
          "same start it converges in %d): raise max_iterations.",
          max_iterations, f.iterations_needed);
    case march::FailureKind::stalled:
      return format(
          "Newton settled at round-off level without meeting [solver] tolerance = %g: the "
          "tolerance is below what round-off allows for these magnitudes; raise it (1e-14 is the "
          "default).",
          tolerance);
    case march::FailureKind::non_finite:
      return "The node's equation overflowed double precision (inf or NaN): the motion or the "
             "material is beyond what the solver can represent (docs/cli.md, \"Magnitudes\").";
    default:
      break;
  }
  if (!warning.empty())
    return "Newton did not approach a solution: the step is outside the stable range (see the "
           "warning above).";
  return format(
      "Newton did not approach a solution: the step is too large for the motion; try a "
      "smaller %s.",
      w.step);
}

}  // namespace

RunOutcome run_outcome(const march::MarchResult& r, const RunProblem& problem, const MarchWords& w,
                       const std::string& warning, double tolerance, int max_iterations) {
  RunOutcome o;
  o.last_slab = r.last_slab;
  const auto holds = [&](int last) {
    return format(" The outputs hold %ss 0..%d and are valid.", w.slab, last);
  };
  if (!problem.error.empty()) {
    o.status = "failed";
    o.exit_code = kSolverFailed;
    o.last_slab = problem.error_slab;
    o.message = "field: run failed after " + std::string(w.slab) + " " +
                std::to_string(problem.error_slab) + ": " + problem.error + "." +
                holds(problem.error_slab);
  } else if (!problem.non_finite.empty()) {
    o.status = "non_finite";
    o.exit_code = kSolverFailed;
    o.message = "field: run failed: " + problem.non_finite +
                " (the motion overflowed double precision; see docs/cli.md, \"Magnitudes\")." +
                holds(r.last_slab);
  } else if (r.failure) {
    const march::MarchFailure& f = *r.failure;
    o.exit_code = kSolverFailed;
    using march::FailureKind;
    if (f.kind == FailureKind::non_finite && f.iterations == 0) {  // a pose of the new slab
      o.status = "non_finite";
      o.message = format(
          "field: run failed: %s %d could not be computed: node %s = %d has a non-finite pose "
          "(inf or NaN): the motion overflowed double precision.",
          w.slab, f.slab, w.node, f.node);
    } else if (f.kind == FailureKind::half_turn) {
      o.status = "half_turn";
      o.message = format(
          "field: run failed: %s %d could not be computed: nodes %s = %d and %d are turned by a "
          "half turn against each other (no Cayley coordinates, theory §2.1); the step is too "
          "large for the motion: try a smaller %s, or retraction = \"exponential\".",
          w.slab, f.slab, w.node, f.node, f.node + 1, w.step);
    } else {
      o.status = f.kind == FailureKind::non_finite ? "non_finite" : "solver_failed";
      o.message = format(
                      "field: solver failed: %s %d could not be computed: node %s = %d did not "
                      "converge (%d Newton iterations, residual %.3e). ",
                      w.slab, f.slab, w.node, f.node, f.iterations, f.residual) +
                  newton_advice(f, w, warning, tolerance, max_iterations);
    }
    o.message += holds(r.last_slab);
  } else if (r.interrupted) {
    const int signal = stop_signal() ? stop_signal() : SIGINT;
    o.status = "interrupted";
    o.exit_code = 128 + signal;
    o.message = format(
        "field: interrupted (%s) after %s %d: the outputs hold %ss 0..%d and are "
        "valid; summary.json says \"status\": \"interrupted\".",
        signal == SIGTERM ? "SIGTERM" : "SIGINT", w.slab, r.last_slab, w.slab, r.last_slab);
  } else {
    o.status = "completed";
    o.exit_code = kSuccess;
  }
  return o;
}

void write_outcome(Summary& summary, const RunOutcome& o, const march::MarchResult& r,
                   const MarchWords& w) {
  summary.text("status", o.status);
  summary.number("exit_code", o.exit_code);
  summary.number(std::string("last_") + w.slab, o.last_slab);
  if (o.status == "interrupted")
    summary.text("signal", stop_signal() == SIGTERM ? "SIGTERM" : "SIGINT");
  if (r.failure) {
    summary.text("failure", march::failure_kind_name(r.failure->kind));
    summary.number(std::string("failed_") + w.slab, r.failure->slab);
    summary.number(std::string("failed_") + (w.node[0] == 'a' ? "node" : "row"), r.failure->node);
    summary.number("failed_iterations", r.failure->iterations);
    summary.number("failed_residual", r.failure->residual);
  }
  if (!o.message.empty()) summary.text("message", o.message.substr(7));  // without "field: "
}

}  // namespace field::app
