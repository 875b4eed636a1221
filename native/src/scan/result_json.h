// A scan's result as JSON text, made straight from the native Result: exactly what
// `JSON.stringify(result, null, 2)` gives for the object scanFolder resolves with (napi/scan_js.cc
// makes that object; tests/native/scan-json.test.ts holds the two to the same text), without a JS
// object per file. `plumb space scan --json` prints it: on a rescan of a million files, making and
// stringifying those objects cost more than the walk.
//
// Given in pieces, whole groups at a time, each group let go once written, so the text is never
// held whole beside the result. The pieces after the one given are made meanwhile, a few at once
// on threads of their own (a rescan of ten million files writes 2.8 GB of text, which on one
// thread took a third as long as the scan).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <string>

#include "scan/scan.h"

namespace plumb {
namespace scan {

struct NoteTexts;

class ResultJson {
 public:
  // `sparsePaths` and `largePaths`: whether the object has those lists (the settings asked).
  ResultJson(Result result, bool sparsePaths, bool largePaths);

  // Appends the next piece (about `kPieceBytes` long, or longer by one group) to `out`; false once
  // the text has all been given. Called from one thread.
  bool Next(std::string* out);

  static constexpr size_t kPieceBytes = size_t{1} << 20;

 private:
  struct Piece {
    size_t groups;                  // how many it holds
    std::future<std::string> text;  // from std::async: let go, it waits for the piece
  };
  void Head(std::string* out) const;
  void Tail(std::string* out) const;
  // Starts making pieces until enough are being made.
  void StartPieces();

  Result result_;
  const bool sparsePaths_;
  const bool largePaths_;
  const size_t piecesAhead_;
  const std::shared_ptr<const NoteTexts> notes_;
  std::deque<Piece> making_;  // in the text's order
  size_t nextGroup_ = 0;      // the first group no piece has taken
  uint64_t groupsMade_ = 0;   // groups and bytes of the pieces given so far: how large a piece's
  uint64_t bytesMade_ = 0;    // share of groups is
  int stage_ = 0;             // 0: nothing given, 1: groups, 2: done
};

// JSON text as JSON.stringify writes them (exported for the writer's own pieces).
void AppendJsonNumber(double value, std::string* out);
void AppendJsonPath(const std::string& text, std::string* out);

}  // namespace scan
}  // namespace plumb
