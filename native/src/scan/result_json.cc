#include "scan/result_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <future>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace plumb {
namespace scan {

// The notes groups carry (a few fixed sentences), each as JSON text: written as they are, where
// escaping each group's note again took 0.3 s of the 3.7 s a rescan of ten million files spent
// writing its text.
struct NoteTexts {
  std::vector<std::pair<const char*, std::string>> texts;
};

namespace {

constexpr char kHex[] = "0123456789abcdef";

// The most a number takes: JsonNumber's longest ("-1.2345678901234567e-308") and a count's.
constexpr size_t kMaxNumberChars = 32;

// Copies the literal `text` (without its NUL) to `at`; returns the end.
template <size_t N>
char* Literal(char* at, const char (&text)[N]) {
  std::memcpy(at, text, N - 1);
  return at + N - 1;
}

// ECMAScript's Number::toString: the shortest digits that read back as the value (std::to_chars
// gives them), laid out in plain notation from 1e-6 up to below 1e21 and in exponent form beyond.
// Written at `at` (room for kMaxNumberChars); returns the end.
char* JsonNumber(double value, char* at) {
  if (!std::isfinite(value)) return Literal(at, "null");
  if (value == 0) {  // -0 too
    *at = '0';
    return at + 1;
  }
  char buf[40];
  const char* end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific).ptr;
  const char* p = buf;
  if (*p == '-') {
    *at++ = '-';
    ++p;
  }
  char digits[24];  // at most 17 significant digits
  int k = 0;
  for (; p < end && *p != 'e'; ++p)
    if (*p != '.') digits[k++] = *p;
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);
  const int n = exponent + 1;  // the decimal point's place after the first digit
  const auto copy = [&at](const char* from, int count) {
    std::memcpy(at, from, static_cast<size_t>(count));
    at += count;
  };
  if (k <= n && n <= 21) {
    copy(digits, k);
    std::memset(at, '0', static_cast<size_t>(n - k));
    at += n - k;
  } else if (0 < n && n <= 21) {
    copy(digits, n);
    *at++ = '.';
    copy(digits + n, k - n);
  } else if (-6 < n && n <= 0) {
    copy("0.", 2);
    std::memset(at, '0', static_cast<size_t>(-n));
    at += -n;
    copy(digits, k);
  } else {
    *at++ = digits[0];
    if (k > 1) {
      *at++ = '.';
      copy(digits + 1, k - 1);
    }
    *at++ = 'e';
    *at++ = n - 1 < 0 ? '-' : '+';
    const int magnitude = n - 1 < 0 ? 1 - n : n - 1;
    at = std::to_chars(at, at + 8, magnitude).ptr;
  }
  return at;
}

// A count (what napi/scan_js.cc's Number() makes of it: a double) at `at`; returns the end.
char* JsonCount(uint64_t value, char* at) {
  // Exact as a double up to 2^53: printed as the integer it is.
  if (value <= (uint64_t{1} << 53)) return std::to_chars(at, at + kMaxNumberChars, value).ptr;
  return JsonNumber(static_cast<double>(value), at);
}

// A line break and the indent of `depth` levels (two spaces each).
void Line(int depth, std::string* out) {
  out->push_back('\n');
  out->append(static_cast<size_t>(depth) * 2, ' ');
}

// `"key": `, after a comma unless it is the object's first key.
void Key(std::string_view key, int depth, bool first, std::string* out) {
  if (!first) out->push_back(',');
  Line(depth, out);
  out->push_back('"');
  out->append(key);
  out->append("\": ");
}

void AppendCount(uint64_t value, std::string* out) {
  char buf[kMaxNumberChars];
  out->append(buf, JsonCount(value, buf));
}

void AppendNull(std::string* out) { out->append("null"); }

void AppendBool(bool value, std::string* out) { out->append(value ? "true" : "false"); }

void AppendEscapedUnit(char16_t unit, std::string* out) {
  out->append("\\u");
  out->push_back(kHex[(unit >> 12) & 15]);
  out->push_back(kHex[(unit >> 8) & 15]);
  out->push_back(kHex[(unit >> 4) & 15]);
  out->push_back(kHex[unit & 15]);
}

// One character below U+0080, escaped as JSON.stringify escapes it; false when it is written as is.
bool AppendAsciiEscape(unsigned char c, std::string* out) {
  switch (c) {
    case '"': out->append("\\\""); return true;
    case '\\': out->append("\\\\"); return true;
    case '\b': out->append("\\b"); return true;
    case '\f': out->append("\\f"); return true;
    case '\n': out->append("\\n"); return true;
    case '\r': out->append("\\r"); return true;
    case '\t': out->append("\\t"); return true;
    default:
      if (c >= 0x20) return false;
      AppendEscapedUnit(c, out);
      return true;
  }
}

void AppendUtf8(char32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
  }
}

// A string that napi/scan_js.cc makes with Napi::String::New (UTF-8 text: ids, notes, fsType),
// or a path that is UTF-8: the runs that need no escape are copied whole.
void AppendText(std::string_view text, std::string* out) {
  out->push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.substr(run, i - run));
    AppendAsciiEscape(c, out);
    run = i + 1;
  }
  out->append(text.substr(run));
  out->push_back('"');
}

void AppendTextOrNull(const std::optional<std::string>& text, std::string* out) {
  if (text) {
    AppendText(*text, out);
  } else {
    AppendNull(out);
  }
}

void AppendCountOrNull(const std::optional<uint64_t>& value, std::string* out) {
  if (value) {
    AppendCount(*value, out);
  } else {
    AppendNull(out);
  }
}

void AppendBoolOrNull(const std::optional<bool>& value, std::string* out) {
  if (value) {
    AppendBool(*value, out);
  } else {
    AppendNull(out);
  }
}

void AppendPathList(std::string_view key, const std::vector<std::string>& paths, std::string* out) {
  Key(key, 1, false, out);
  if (paths.empty()) {
    out->append("[]");
    return;
  }
  out->push_back('[');
  for (size_t i = 0; i < paths.size(); ++i) {
    if (i > 0) out->push_back(',');
    Line(2, out);
    AppendJsonPath(paths[i], out);
  }
  Line(1, out);
  out->push_back(']');
}

// `"key": { ... }` one level down: an object of counts (null where unknown).
void AppendCounts(
    std::string_view key,
    std::initializer_list<std::pair<std::string_view, std::optional<uint64_t>>> counts,
    std::string* out) {
  Key(key, 1, false, out);
  out->push_back('{');
  bool first = true;
  for (const auto& [name, value] : counts) {
    Key(name, 2, first, out);
    AppendCountOrNull(value, out);
    first = false;
  }
  Line(1, out);
  out->push_back('}');
}

// A file of a group (four levels down), each key on a line of its own. The text after the path
// is made in a buffer on the stack and appended at once: a rescan of a million files writes
// 600,000 of these, and appending each key, indent and figure on its own took longer than the
// walk's share of the scan.
void AppendGroupFile(const GroupFile& f, bool first, std::string* out) {
  if (first) {
    out->append("\n        {\n          \"path\": ");
  } else {
    out->append(",\n        {\n          \"path\": ");
  }
  AppendJsonPath(f.path, out);
  char buf[512];  // the keys (under 200 bytes) and five figures of at most kMaxNumberChars
  char* at = buf;
  at = Literal(at, ",\n          \"size\": ");
  at = JsonCount(f.size, at);
  at = Literal(at, ",\n          \"ino\": ");
  at = JsonCount(f.ino, at);
  at = Literal(at, ",\n          \"mtimeMs\": ");
  at = JsonNumber(f.mtimeMs, at);
  at = Literal(at, ",\n          \"ctimeMs\": ");
  at = JsonNumber(f.ctimeMs, at);
  at = Literal(at, ",\n          \"links\": ");
  at = JsonCount(f.links, at);
  at = Literal(at, ",\n          \"reclaimableBytes\": ");
  at = f.reclaimableBytes ? JsonCount(*f.reclaimableBytes, at) : Literal(at, "null");
  at = Literal(at, ",\n          \"alreadyClone\": ");
  if (f.alreadyClone) {
    at = *f.alreadyClone ? Literal(at, "true") : Literal(at, "false");
  } else {
    at = Literal(at, "null");
  }
  at = Literal(at, "\n        }");
  out->append(buf, at);
}

// A group as the groups array holds it (two levels down).
void AppendGroup(const Group& g, const NoteTexts& notes, std::string* out) {
  out->push_back('{');
  Key("id", 3, true, out);
  AppendText(g.id, out);
  Key("size", 3, false, out);
  AppendCount(g.size, out);
  Key("keeper", 3, false, out);
  AppendJsonPath(g.keeper(), out);
  Key("files", 3, false, out);
  out->push_back('[');
  for (size_t i = 0; i < g.files.size(); ++i) AppendGroupFile(g.files[i], i == 0, out);
  if (!g.files.empty()) Line(3, out);
  out->push_back(']');
  Key("nominalBytes", 3, false, out);
  AppendCount(g.nominalBytes, out);
  Key("sharedBytes", 3, false, out);
  AppendCountOrNull(g.sharedBytes, out);
  Key("reclaimableBytes", 3, false, out);
  AppendCountOrNull(g.reclaimableBytes, out);
  Key("note", 3, false, out);
  if (g.note) {
    const auto text = std::find_if(notes.texts.begin(), notes.texts.end(),
                                   [&g](const auto& note) { return note.first == g.note; });
    if (text != notes.texts.end()) {
      out->append(text->second);
    } else {
      AppendText(g.note, out);
    }
  } else {
    AppendNull(out);
  }
  Line(2, out);
  out->push_back('}');
}

}  // namespace

void AppendJsonNumber(double value, std::string* out) {
  char buf[kMaxNumberChars];
  out->append(buf, JsonNumber(value, buf));
}

// A path as PathToJs makes it a JS string (bytes that are not UTF-8 kept as lone surrogates),
// then as JSON.stringify writes that string: lone surrogates escaped as \udcXX.
void AppendJsonPath(const std::string& text, std::string* out) {
  // Most paths are printable ASCII with no quote or backslash: copied as they are.
  bool plain = true;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    plain &= u >= 0x20 && u < 0x80 && u != '"' && u != '\\';
  }
  if (plain) {
    out->push_back('"');
    out->append(text);
    out->push_back('"');
    return;
  }
  if (PathIsUtf8(text)) {
    AppendText(text, out);
    return;
  }
  const std::u16string units = PathToUtf16(text);
  out->push_back('"');
  for (size_t i = 0; i < units.size(); ++i) {
    const char16_t u = units[i];
    if (u < 0x80) {
      if (!AppendAsciiEscape(static_cast<unsigned char>(u), out))
        out->push_back(static_cast<char>(u));
    } else if (u >= 0xd800 && u <= 0xdbff && i + 1 < units.size() && units[i + 1] >= 0xdc00 &&
               units[i + 1] <= 0xdfff) {
      AppendUtf8(0x10000 + ((static_cast<char32_t>(u) - 0xd800) << 10) + (units[i + 1] - 0xdc00),
                 out);
      ++i;
    } else if (u >= 0xd800 && u <= 0xdfff) {
      AppendEscapedUnit(u, out);
    } else {
      AppendUtf8(u, out);
    }
  }
  out->push_back('"');
}

namespace {

// Pieces made at once: one for each core, and at least two (one being given while the next is
// made).
size_t PiecesAhead() {
  const unsigned cores = std::thread::hardware_concurrency();
  return std::clamp<size_t>(cores, 2, 8);
}

std::shared_ptr<const NoteTexts> NoteTextsOf(const GroupList& groups) {
  auto notes = std::make_shared<NoteTexts>();
  for (const char* note : groups.Notes()) {
    std::string text;
    AppendText(note, &text);
    notes->texts.emplace_back(note, std::move(text));
  }
  return notes;
}

// Groups [from, to) as they follow the groups before them in the array, at `out`.
std::string GroupsText(const GroupList& groups, std::shared_ptr<const NoteTexts> notes, size_t from,
                       size_t to) {
  std::string text;
  text.reserve(ResultJson::kPieceBytes + ResultJson::kPieceBytes / 4);  // and a group
  for (size_t i = from; i < to; ++i) {
    if (i > 0) text.push_back(',');
    Line(2, &text);
    groups.MakingNext(i);
    AppendGroup(groups[i], *notes, &text);  // made now, let go once written
  }
  return text;
}

}  // namespace

ResultJson::ResultJson(Result result, bool sparsePaths, bool largePaths)
    : result_(std::move(result)),
      sparsePaths_(sparsePaths),
      largePaths_(largePaths),
      piecesAhead_(PiecesAhead()),
      notes_(NoteTextsOf(result_.groups)) {}

void ResultJson::StartPieces() {
  const size_t count = result_.groups.size();
  while (making_.size() < piecesAhead_ && nextGroup_ < count) {
    // As many groups as the pieces given so far held in kPieceBytes (groups of many files take
    // more); a few to begin with.
    constexpr size_t kFirstGroups = 64;
    const size_t share = groupsMade_ == 0
                             ? kFirstGroups
                             : static_cast<size_t>(std::clamp<uint64_t>(
                                   kPieceBytes * groupsMade_ / bytesMade_, 1, uint64_t{1} << 20));
    const size_t from = nextGroup_;
    const size_t to = std::min(count, from + share);
    making_.push_back(Piece{
        to - from, std::async(std::launch::async, GroupsText, result_.groups, notes_, from, to)});
    nextGroup_ = to;
  }
}

bool ResultJson::Next(std::string* out) {
  if (stage_ == 2) return false;
  if (stage_ == 0) {
    Head(out);
    stage_ = 1;
  }
  StartPieces();
  if (!making_.empty()) {
    Piece piece = std::move(making_.front());
    making_.pop_front();
    std::string text = piece.text.get();
    groupsMade_ += piece.groups;
    bytesMade_ += std::max<size_t>(text.size(), 1);
    if (out->empty()) {
      *out = std::move(text);
    } else {
      out->append(text);
    }
    StartPieces();
  }
  if (making_.empty() && nextGroup_ == result_.groups.size()) {
    result_.groups.Release();
    Tail(out);
    stage_ = 2;
  }
  return true;
}

// Everything before the first group, up to and including the groups array's opening bracket.
void ResultJson::Head(std::string* out) const {
  const Result& r = result_;
  out->push_back('{');
  Key("scanId", 1, true, out);
  AppendText(r.scanId, out);
  Key("root", 1, false, out);
  AppendJsonPath(r.root, out);
  Key("fsType", 1, false, out);
  AppendTextOrNull(r.fsType, out);
  Key("sharingSupported", 1, false, out);
  AppendBoolOrNull(r.sharingSupported, out);
  Key("files", 1, false, out);
  AppendCount(r.files, out);
  Key("bytes", 1, false, out);
  AppendCount(r.bytes, out);
  Key("seconds", 1, false, out);
  AppendJsonNumber(r.seconds, out);
  Key("stageSeconds", 1, false, out);
  out->push_back('{');
  const std::pair<std::string_view, double> stages[] = {{"walk", r.stageSeconds.walk},
                                                        {"compare", r.stageSeconds.compare},
                                                        {"hash", r.stageSeconds.hash},
                                                        {"sharing", r.stageSeconds.sharing}};
  for (size_t i = 0; i < std::size(stages); ++i) {
    Key(stages[i].first, 2, i == 0, out);
    AppendJsonNumber(stages[i].second, out);
  }
  Line(1, out);
  out->push_back('}');
  const Skips& skipped = r.skipped;
  AppendCounts("skipped",
               {{"symlinks", skipped.symlinks},
                {"otherVolumes", skipped.otherVolumes},
                {"extraHardLinks", skipped.extraHardLinks},
                {"special", skipped.special},
                {"excluded", skipped.excluded},
                {"unreadable", skipped.unreadable}},
               out);
  Key("groups", 1, false, out);
  out->push_back('[');
}

// Everything after the last group.
void ResultJson::Tail(std::string* out) const {
  const Result& r = result_;
  if (nextGroup_ > 0) Line(1, out);
  out->push_back(']');
  AppendCounts("totals",
               {{"nominalBytes", r.totals.nominalBytes},
                {"sharedBytes", r.totals.sharedBytes},
                {"reclaimableBytes", r.totals.reclaimableBytes},
                {"unknownGroups", r.totals.unknownGroups}},
               out);
  AppendCounts("sparse",
               {{"files", r.sparse.files},
                {"logicalBytes", r.sparse.logicalBytes},
                {"allocatedBytes", r.sparse.allocatedBytes}},
               out);
  AppendCounts("contentRead", {{"files", r.filesRead}, {"bytes", r.bytesRead}}, out);
  if (sparsePaths_) AppendPathList("sparsePaths", r.sparsePaths, out);
  if (largePaths_) AppendPathList("largePaths", r.largePaths, out);
  Line(0, out);
  out->push_back('}');
}

}  // namespace scan
}  // namespace plumb
