// What a scan prints, byte for byte as the JavaScript side prints it: the contract's JSON
// (JSON.stringify of the object app/core/space/scan.ts builds), the text summary and the progress
// line of `plumb space scan` (app/cli/commands/space.ts), and formatBytes (app/core/units.ts).
//
// Exactness comes from three JavaScript rules ported here: Number::toString (shortest digits that
// read back as the same double, in ECMAScript's layout), Number.prototype.toFixed (rounds the
// exact binary value, ties away from zero), and how V8 makes a string from UTF-8 bytes (each
// invalid sequence, at its maximal subpart, becomes U+FFFD), since paths are bytes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "scan/scan.h"

namespace plumb {
namespace scan {
namespace {

constexpr size_t kPieceBytes = 8 * 1024;                 // the sink gets pieces of about this size
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53: integers above lose digits in JS

// ── Numbers ──────────────────────────────────────────────────────────────────────────────────

// The shortest decimal digits (no leading or trailing zeros) that read back as `x` (finite, > 0),
// and where the decimal point goes: x = 0.<digits> × 10^point. printf's correctly rounded %e at
// growing precision finds them; std::to_chars would too, but macOS 11 lacks it for doubles.
void ShortestDigits(double x, std::string* digits, int* point) {
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*e", precision - 1, x);
    if (precision == 17 || std::strtod(text, nullptr) == x) break;
  }
  // text is "d.ddde±XX" (or "de±XX" at precision 1).
  digits->clear();
  const char* p = text;
  for (; *p != 'e'; ++p) {
    if (*p != '.') digits->push_back(*p);
  }
  const int exponent = std::atoi(p + 1);
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
  *point = exponent + 1;
}

// Number::toString(x) (ECMA-262 6.1.6.1.20), for the numbers a scan prints.
std::string NumberToString(double x) {
  if (std::isnan(x)) return "NaN";
  if (x == 0) return "0";  // also -0
  if (std::isinf(x)) return x < 0 ? "-Infinity" : "Infinity";
  std::string out = x < 0 ? "-" : "";
  std::string digits;
  int n = 0;
  ShortestDigits(std::fabs(x), &digits, &n);
  const int k = static_cast<int>(digits.size());
  if (k <= n && n <= 21) {
    out += digits;
    out.append(n - k, '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, n);
    out += '.';
    out += digits.substr(n);
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(-n, '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    const int e = n - 1;
    out += e < 0 ? "e-" : "e+";
    out += std::to_string(e < 0 ? -e : e);
  }
  return out;
}

// An integer as JavaScript prints the Number it becomes: plain digits up to 2^53 (every count and
// byte total a scan meets), the nearest double's digits beyond.
std::string IntegerToString(uint64_t value) {
  const double asDouble = static_cast<double>(value);
  if (asDouble <= kMaxExactInteger) return std::to_string(value);
  return NumberToString(asDouble);
}

// Number.prototype.toFixed(digits) (ECMA-262 21.1.3.3): the exact binary value rounded to
// `digits` decimals, a tie going to the larger magnitude (printf's %.Nf would go to even).
std::string ToFixed(double x, int digits) {
  if (!std::isfinite(x) || std::fabs(x) >= 1e21) return NumberToString(x);
  const bool negative = x < 0;  // -0 is not below 0: (-0).toFixed(1) is "0.0"
  // Every finite double has an exact decimal expansion of at most 1074 decimals; printf writes it
  // exactly at that precision, so rounding can be decided on its digits.
  std::vector<char> text(1400);
  std::snprintf(text.data(), text.size(), "%.1074f", std::fabs(x));
  std::string exact(text.data());
  const size_t dot = exact.find('.');
  std::string kept = exact.substr(0, dot) + exact.substr(dot + 1, digits);
  if (exact[dot + 1 + digits] >= '5') {
    // Round the kept digits up (the rest is 5 or more in the next decimal: a tie or above).
    size_t i = kept.size();
    while (i > 0 && kept[i - 1] == '9') kept[--i] = '0';
    if (i == 0) {
      kept.insert(kept.begin(), '1');
    } else {
      ++kept[i - 1];
    }
  }
  const size_t whole = kept.size() - digits;
  std::string out = negative ? "-" : "";
  out += kept.substr(0, whole);
  if (digits > 0) out += "." + kept.substr(whole);
  return out;
}

// ── Strings ──────────────────────────────────────────────────────────────────────────────────

// Appends `bytes` as the UTF-8 of the JavaScript string V8 makes from them: valid sequences as
// they are, each invalid one (a maximal subpart, as the WHATWG decoder cuts them) as U+FFFD.
void AppendWellFormed(const std::string& bytes, std::string* out) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t size = bytes.size();
  size_t i = 0;
  while (i < size) {
    const unsigned char lead = p[i];
    if (lead < 0x80) {
      out->push_back(static_cast<char>(lead));
      ++i;
      continue;
    }
    // Continuation bytes needed, and the allowed range of the first one (no overlongs, no
    // surrogates, nothing above U+10FFFF).
    int needed = 0;
    unsigned char lower = 0x80, upper = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      needed = 2;
      if (lead == 0xE0) lower = 0xA0;
      if (lead == 0xED) upper = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      needed = 3;
      if (lead == 0xF0) lower = 0x90;
      if (lead == 0xF4) upper = 0x8F;
    } else {
      out->append(kReplacement);  // a byte that never starts a sequence
      ++i;
      continue;
    }
    size_t end = i + 1;
    bool valid = true;
    for (int seen = 0; seen < needed; ++seen, ++end) {
      if (end >= size || p[end] < lower || p[end] > upper) {
        valid = false;
        break;
      }
      lower = 0x80;
      upper = 0xBF;
    }
    if (valid) {
      out->append(bytes, i, end - i);
    } else {
      out->append(kReplacement);  // the bytes read so far; the one that broke it starts anew
    }
    i = end;
  }
}

std::string WellFormed(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  AppendWellFormed(bytes, &out);
  return out;
}

// A JSON string literal as JSON.stringify writes it.
void AppendJsonString(const std::string& bytes, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  AppendWellFormed(bytes, &text);
  out->push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[(c >> 4) & 0xF]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

// String.prototype.padStart(width): `text` (UTF-8) widened to `width` UTF-16 code units.
std::string PadStart(const std::string& text, size_t width) {
  size_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) units += byte >= 0xF0 ? 2 : 1;  // 4-byte: a surrogate pair
  }
  return units >= width ? text : std::string(width - units, ' ') + text;
}

// ── JSON ─────────────────────────────────────────────────────────────────────────────────────

// Writes JSON.stringify's layout (indent spaces per level; 0: compact) into a buffer that goes to
// the sink whenever it holds a piece's worth.
class JsonWriter {
 public:
  JsonWriter(int indent, const Sink& sink) : indent_(indent), sink_(sink) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  // The next member's key; its value follows.
  void Key(const char* name) {
    Separate();
    buffer_.push_back('"');
    buffer_.append(name);
    buffer_.append(indent_ > 0 ? "\": " : "\":");
    keyed_ = true;
  }

  void String(const std::string& bytes) {
    Separate();
    AppendJsonString(bytes, &buffer_);
  }
  void String(const std::optional<std::string>& bytes) {
    if (bytes) {
      String(*bytes);
    } else {
      Null();
    }
  }
  void Null() { Raw("null"); }
  void Integer(uint64_t value) { Raw(IntegerToString(value)); }
  void Integer(const std::optional<uint64_t>& value) {
    Raw(value ? IntegerToString(*value) : "null");
  }
  // JSON.stringify writes NaN and the infinities as null.
  void Number(double value) { Raw(std::isfinite(value) ? NumberToString(value) : "null"); }
  void Boolean(const std::optional<bool>& value) {
    Raw(!value ? "null" : *value ? "true" : "false");
  }

  void Finish() {
    if (!buffer_.empty()) sink_(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

 private:
  // Before a value or key: the comma and line break of a container's next item.
  void Separate() {
    if (keyed_) {
      keyed_ = false;  // a member's value follows its key directly
    } else if (!open_.empty()) {
      if (open_.back()) buffer_.push_back(',');
      open_.back() = true;
      NewLine(open_.size());
    }
    if (buffer_.size() >= kPieceBytes) Finish();
  }

  void NewLine(size_t depth) {
    if (indent_ == 0) return;
    buffer_.push_back('\n');
    buffer_.append(depth * indent_, ' ');
  }

  void Raw(const std::string& text) {
    Separate();
    buffer_.append(text);
  }

  void Open(char bracket) {
    Separate();
    buffer_.push_back(bracket);
    open_.push_back(false);
  }

  void Close(char bracket) {
    const bool hadItems = open_.back();
    open_.pop_back();
    if (hadItems) NewLine(open_.size());  // an empty container stays "[]" or "{}"
    buffer_.push_back(bracket);
  }

  const int indent_;
  const Sink sink_;
  std::string buffer_;
  std::vector<bool> open_;  // per open container: whether it has an item yet
  bool keyed_ = false;
};

void WriteFile(const GroupFile& file, JsonWriter* json) {
  json->BeginObject();
  json->Key("path");
  json->String(file.path);
  json->Key("size");
  json->Integer(file.size);
  json->Key("ino");
  json->Integer(file.ino);
  json->Key("mtimeMs");
  json->Number(file.mtimeMs);
  json->Key("ctimeMs");
  json->Number(file.ctimeMs);
  json->Key("links");
  json->Integer(file.links);
  json->Key("reclaimableBytes");
  json->Integer(file.reclaimableBytes);
  json->Key("alreadyClone");
  json->Boolean(file.alreadyClone);
  json->EndObject();
}

void WriteGroup(const Group& group, JsonWriter* json) {
  json->BeginObject();
  json->Key("id");
  json->String(group.id);
  json->Key("size");
  json->Integer(group.size);
  json->Key("keeper");
  json->String(group.keeper());
  json->Key("files");
  json->BeginArray();
  for (const GroupFile& file : group.files) WriteFile(file, json);
  json->EndArray();
  json->Key("nominalBytes");
  json->Integer(group.nominalBytes);
  json->Key("sharedBytes");
  json->Integer(group.sharedBytes);
  json->Key("reclaimableBytes");
  json->Integer(group.reclaimableBytes);
  json->Key("note");
  if (group.note)
    json->String(std::string(group.note));
  else
    json->Null();
  json->EndObject();
}

// ── Text ─────────────────────────────────────────────────────────────────────────────────────

// Lines of text, handed to the sink in pieces like the JSON.
class LineWriter {
 public:
  explicit LineWriter(const Sink& sink) : sink_(sink) {}
  void Line(const std::string& text) {
    buffer_ += text;
    buffer_ += '\n';
    if (buffer_.size() >= kPieceBytes) Finish();
  }
  void Finish() {
    if (!buffer_.empty()) sink_(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

 private:
  const Sink& sink_;
  std::string buffer_;
};

std::string BytesOrUnknown(const std::optional<uint64_t>& bytes) {
  return bytes ? FormatBytes(static_cast<double>(*bytes)) : "unknown";
}

std::string Count(uint64_t value) { return IntegerToString(value); }

}  // namespace

void WriteJson(const Result& result, int indent, const Sink& sink) {
  // JSON.stringify uses at most 10 spaces of indent.
  JsonWriter json(indent < 0 ? 0 : indent > 10 ? 10 : indent, sink);
  json.BeginObject();
  json.Key("scanId");
  json.String(result.scanId);
  json.Key("root");
  json.String(result.root);
  json.Key("fsType");
  json.String(result.fsType);
  json.Key("sharingSupported");
  json.Boolean(result.sharingSupported);
  json.Key("files");
  json.Integer(result.files);
  json.Key("bytes");
  json.Integer(result.bytes);
  json.Key("seconds");
  json.Number(result.seconds);

  json.Key("stageSeconds");
  json.BeginObject();
  json.Key("walk");
  json.Number(result.stageSeconds.walk);
  json.Key("compare");
  json.Number(result.stageSeconds.compare);
  json.Key("hash");
  json.Number(result.stageSeconds.hash);
  json.Key("sharing");
  json.Number(result.stageSeconds.sharing);
  json.EndObject();

  const Skips& skipped = result.skipped;
  json.Key("skipped");
  json.BeginObject();
  json.Key("symlinks");
  json.Integer(skipped.symlinks);
  json.Key("otherVolumes");
  json.Integer(skipped.otherVolumes);
  json.Key("extraHardLinks");
  json.Integer(skipped.extraHardLinks);
  json.Key("special");
  json.Integer(skipped.special);
  json.Key("excluded");
  json.Integer(skipped.excluded);
  json.Key("unreadable");
  json.Integer(skipped.unreadable);
  json.EndObject();

  json.Key("groups");
  json.BeginArray();
  for (const Group& group : result.groups) WriteGroup(group, &json);
  json.EndArray();

  json.Key("totals");
  json.BeginObject();
  json.Key("nominalBytes");
  json.Integer(result.totals.nominalBytes);
  json.Key("sharedBytes");
  json.Integer(result.totals.sharedBytes);
  json.Key("reclaimableBytes");
  json.Integer(result.totals.reclaimableBytes);
  json.Key("unknownGroups");
  json.Integer(result.totals.unknownGroups);
  json.EndObject();

  json.Key("sparse");
  json.BeginObject();
  json.Key("files");
  json.Integer(result.sparse.files);
  json.Key("logicalBytes");
  json.Integer(result.sparse.logicalBytes);
  json.Key("allocatedBytes");
  json.Integer(result.sparse.allocatedBytes);
  json.EndObject();

  json.Key("contentRead");
  json.BeginObject();
  json.Key("files");
  json.Integer(result.filesRead);
  json.Key("bytes");
  json.Integer(result.bytesRead);
  json.EndObject();

  json.EndObject();
  json.Finish();
}

std::string FormatBytes(double bytes) {
  if (!std::isfinite(bytes)) return "\xE2\x80\x94";  // "—"
  static const char* const kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  constexpr int kLast = 5;
  double value = std::fabs(bytes);
  int index = 0;
  while (value >= 1000 && index < kLast) {
    value /= 1000;
    index += 1;
  }
  // Three significant figures, decided after rounding so 9.999 MB reads "10.0 MB", not "10.00 MB".
  const auto digitsFor = [&index](double v) {
    return index == 0 || v >= 100 ? 0 : v >= 10 ? 1 : 2;
  };
  int digits = digitsFor(value);
  const double rounded = std::strtod(ToFixed(value, digits).c_str(), nullptr);
  if (rounded >= 1000 && index < kLast) {
    value = rounded / 1000;
    index += 1;
  } else {
    value = rounded;
  }
  digits = digitsFor(value);
  return (bytes < 0 ? "-" : "") + ToFixed(value, digits) + " " + kUnits[index];
}

void WriteText(const Result& result, const Sink& sink) {
  LineWriter out(sink);
  out.Line("Scanned " + WellFormed(result.root) + " (" +
           (result.fsType ? WellFormed(*result.fsType) : "unknown file system") + "): " +
           Count(result.files) + " files, " + FormatBytes(static_cast<double>(result.bytes)) +
           " in " + ToFixed(result.seconds, 1) + " s");
  const Totals& t = result.totals;
  out.Line("Duplicate groups: " + Count(result.groups.size()));
  out.Line("  Nominal duplicates  " +
           PadStart(FormatBytes(static_cast<double>(t.nominalBytes)), 9) +
           "  what summing the copies' sizes claims");
  out.Line("  Already shared      " + PadStart(BytesOrUnknown(t.sharedBytes), 9) +
           "  stored once already (clones): nothing to gain");
  out.Line("  Reclaimable         " + PadStart(BytesOrUnknown(t.reclaimableBytes), 9) +
           "  what turning copies into clones would free");
  if (t.unknownGroups > 0) {
    out.Line("  (" + Count(t.unknownGroups) +
             " groups: this file system does not say what is shared; measured when applied)");
  }
  if (result.sharingSupported == false) {
    out.Line(
        "  This file system cannot share storage between files, so cloning frees nothing here.");
  }
  constexpr size_t kShownGroups = 20;
  const size_t shown = std::min(result.groups.size(), kShownGroups);
  if (shown > 0) out.Line("Largest groups:");
  for (size_t g = 0; g < shown; ++g) {
    const Group& group = result.groups[g];
    const std::string keeper = WellFormed(group.keeper());
    out.Line("  " + PadStart(BytesOrUnknown(group.reclaimableBytes), 9) + " reclaimable  " +
             Count(group.files.size()) + " \xC3\x97 " +  // "×"
             FormatBytes(static_cast<double>(group.size)) + "  " + keeper);
    for (const GroupFile& file : group.files) {
      // Compared as the JavaScript strings are, after the same replacement of invalid bytes.
      std::string path = WellFormed(file.path);
      if (path != keeper) out.Line("      = " + path);
    }
  }
  if (result.groups.size() > shown) {
    out.Line("  \xE2\x80\xA6 and " + Count(result.groups.size() - shown) +  // "…"
             " more groups (--json lists all)");
  }
  const Skips& s = result.skipped;
  out.Line("Skipped: " + Count(s.symlinks) + " symbolic links, " + Count(s.otherVolumes) +
           " on other volumes, " + Count(s.extraHardLinks) + " extra hard links, " +
           Count(s.excluded) + " excluded, " + Count(s.special) + " special, " +
           Count(s.unreadable) + " unreadable");
  out.Line("Sparse files: " + Count(result.sparse.files) + " (" +
           FormatBytes(static_cast<double>(result.sparse.logicalBytes)) + " logical, " +
           FormatBytes(static_cast<double>(result.sparse.allocatedBytes)) + " allocated)");
  out.Finish();
}

std::string ProgressLine(const Progress& p) {
  switch (p.phase) {
    case Phase::kWalk:
      return "walking: " + IntegerToString(p.files) + " files, " +
             FormatBytes(static_cast<double>(p.bytes));
    case Phase::kHash: {
      const std::string left =
          p.secondsLeft ? ", " + NumberToString(std::ceil(*p.secondsLeft)) + " s left" : "";
      return "hashing: " + FormatBytes(static_cast<double>(p.bytesHashed)) + " of " +
             FormatBytes(static_cast<double>(p.bytesToHash)) + left;
    }
    case Phase::kDone: return "";
    default: return std::string(PhaseName(p.phase)) + "\xE2\x80\xA6";  // "compare…", "sharing…"
  }
}

}  // namespace scan
}  // namespace plumb
