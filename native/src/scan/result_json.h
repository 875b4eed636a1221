// A scan's result as JSON text, made straight from the native Result: exactly what
// `JSON.stringify(result, null, 2)` gives for the object scanFolder resolves with (napi/scan_js.cc
// makes that object; tests/native/scan-json.test.ts holds the two to the same text), without a JS
// object per file. `plumb space scan --json` prints it: on a rescan of a million files, making and
// stringifying those objects cost more than the walk.
//
// Given in pieces, whole groups at a time, each group let go once written, so the text is never
// held whole beside the result.
#pragma once

#include <cstddef>
#include <string>

#include "scan/scan.h"

namespace plumb {
namespace scan {

class ResultJson {
 public:
  // `sparsePaths` and `largePaths`: whether the object has those lists (the settings asked).
  ResultJson(Result result, bool sparsePaths, bool largePaths);

  // Appends the next piece (about `bytes` long, or longer by one group) to `out`; false once the
  // text has all been given.
  bool Next(size_t bytes, std::string* out);

 private:
  void Head(std::string* out);
  void Tail(std::string* out);

  Result result_;
  const bool sparsePaths_;
  const bool largePaths_;
  size_t nextGroup_ = 0;
  int stage_ = 0;  // 0: nothing given, 1: groups, 2: done
};

// JSON text as JSON.stringify writes them (exported for the writer's own pieces).
void AppendJsonNumber(double value, std::string* out);
void AppendJsonPath(const std::string& text, std::string* out);

}  // namespace scan
}  // namespace plumb
