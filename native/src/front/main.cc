// bin/plumb: `plumb space scan DIR` in this process, everything else handed to Node (front.h).
//
// The scan runs here only when the result is certain to be what the Node CLI would print: the
// arguments are ones parseArgs accepts with scan's flags, and no interrupted dedupe waits to be
// recovered. Everything else (other commands, --help, --version, dedupe's flags, any argument
// error, whose wording belongs to Node's parseArgs) goes to Node, which prints its own answer.
// What is run here follows app/cli/main.ts and app/cli/commands/space.ts step by step: the same
// checks in the same order, the same messages, the same exit codes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "front/front.h"
#include "scan/scan.h"

namespace plumb {
namespace front {
namespace {

// app/cli/command.ts exitCode.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

constexpr double kMaxSafeInteger = 9007199254740991.0;  // Number.MAX_SAFE_INTEGER
constexpr size_t kMaxPathChars = 4096;                  // scanSettings: the folder's length limit

// How main.ts words a failed command: "plumb space: <message>".
void PrintError(const std::string& message) { WriteErr("plumb space: " + message + "\n"); }

// What `plumb space scan` was given, when it is something the front door runs itself.
struct ScanArgs {
  bool json = false;
  std::optional<std::string> minSize;
  bool noHidden = false;
  bool all = false;
  std::vector<std::string> positionals;
};

// Reads the arguments after `space scan` as node:util parseArgs does (strict, positionals allowed)
// with scan's flags. False for anything left to Node: -h/--help, dedupe's --apply and --method
// (Node tells they do not belong here), and every command line parseArgs refuses.
bool ParseScanArgs(const std::vector<std::string>& args, size_t start, ScanArgs* out) {
  for (size_t i = start; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out->positionals.insert(out->positionals.end(), args.begin() + i + 1, args.end());
      return true;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      out->positionals.push_back(arg);  // "-" alone is a positional too
      continue;
    }
    if (arg[1] != '-') return false;  // short options: only -h exists, and it means help
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(2, equals == std::string::npos ? equals : equals - 2);
    if (name == "min-size") {
      if (equals != std::string::npos) {
        out->minSize = arg.substr(equals + 1);
      } else {
        // The value is the next argument, unless that looks like an option (parseArgs: ambiguous).
        if (i + 1 >= args.size()) return false;
        const std::string& value = args[i + 1];
        if (value.size() > 1 && value[0] == '-') return false;
        out->minSize = value;
        ++i;
      }
      continue;
    }
    if (equals != std::string::npos) return false;  // a value for a flag
    if (name == "json") {
      out->json = true;
    } else if (name == "no-hidden") {
      out->noHidden = true;
    } else if (name == "all") {
      out->all = true;
    } else {
      return false;
    }
  }
  return true;
}

// The code point at `text[i]` when it is JavaScript white space (\s, what trim() removes) and its
// length in bytes; 0 when it is anything else.
size_t WhitespaceAt(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) {
    return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u;
  };
  const unsigned b0 = byte(i);
  if (b0 == ' ' || (b0 >= 0x09 && b0 <= 0x0D)) return 1;
  if (b0 == 0xC2 && byte(i + 1) == 0xA0) return 2;                         // U+00A0
  if (b0 == 0xE1 && byte(i + 1) == 0x9A && byte(i + 2) == 0x80) return 3;  // U+1680
  if (b0 == 0xE2 && byte(i + 1) == 0x80) {
    const unsigned b2 = byte(i + 2);
    // U+2000..U+200A, U+2028, U+2029, U+202F
    if ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF) return 3;
  }
  if (b0 == 0xE2 && byte(i + 1) == 0x81 && byte(i + 2) == 0x9F) return 3;  // U+205F
  if (b0 == 0xE3 && byte(i + 1) == 0x80 && byte(i + 2) == 0x80) return 3;  // U+3000
  if (b0 == 0xEF && byte(i + 1) == 0xBB && byte(i + 2) == 0xBF) return 3;  // U+FEFF
  return 0;
}

// Where the white space at the start of `text` ends.
size_t SkipWhitespace(const std::string& text, size_t i) {
  for (size_t length; (length = WhitespaceAt(text, i)) > 0;) i += length;
  return i;
}

// String.prototype.trim.
std::string Trim(const std::string& text) {
  const size_t start = SkipWhitespace(text, 0);
  size_t end = start;
  for (size_t i = start; i < text.size();) {
    const size_t space = WhitespaceAt(text, i);
    if (space > 0) {
      i += space;
    } else {
      ++i;
      end = i;  // just past the last byte that is not white space
    }
  }
  return text.substr(start, end - start);
}

// The length of `text` in UTF-16 code units, as JavaScript counts a string.
size_t Utf16Length(const std::string& text) {
  size_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

// app/core/units.ts parseSize: "512MB" → 512e6, "8GiB" → 8·2³⁰, "100" → 100; false when the text
// is not a size. The product is rounded as Math.round does (half up) and may be unsafe (huge).
bool ParseSize(const std::string& text, double* bytes) {
  // /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/
  const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  const auto isLetter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  size_t i = SkipWhitespace(text, 0);
  const size_t numberStart = i;
  while (i < text.size() && isDigit(text[i])) ++i;
  if (i == numberStart) return false;
  if (i + 1 < text.size() && text[i] == '.' && isDigit(text[i + 1])) {
    for (++i; i < text.size() && isDigit(text[i]);) ++i;
  }
  const std::string number = text.substr(numberStart, i - numberStart);
  i = SkipWhitespace(text, i);
  std::string unit;
  for (; i < text.size() && isLetter(text[i]); ++i) {
    unit.push_back(static_cast<char>(text[i] | 0x20));  // lower case
  }
  if (SkipWhitespace(text, i) != text.size()) return false;

  static const struct {
    const char* unit;
    double multiplier;
  } kMultipliers[] = {
      {"", 1},
      {"b", 1},
      {"k", 1e3},
      {"kb", 1e3},
      {"m", 1e6},
      {"mb", 1e6},
      {"g", 1e9},
      {"gb", 1e9},
      {"t", 1e12},
      {"tb", 1e12},
      {"kib", 1024.0},
      {"mib", 1048576.0},
      {"gib", 1073741824.0},
      {"tib", 1099511627776.0},
  };
  for (const auto& entry : kMultipliers) {
    if (unit != entry.unit) continue;
    const double product = std::strtod(number.c_str(), nullptr) * entry.multiplier;
    const double floor = std::floor(product);
    *bytes = product - floor >= 0.5 ? floor + 1 : floor;  // Math.round
    return true;
  }
  return false;
}

// A random UUID (version 4), as crypto.randomUUID makes the scan's id.
std::string RandomUuid() {
  std::random_device source;
  unsigned char bytes[16];
  for (size_t i = 0; i < sizeof bytes; i += 4) {
    const uint32_t word = source();
    for (size_t k = 0; k < 4; ++k) bytes[i + k] = static_cast<unsigned char>(word >> (8 * k));
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  static const char kHex[] = "0123456789abcdef";
  std::string id;
  for (size_t i = 0; i < sizeof bytes; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id.push_back('-');
    id.push_back(kHex[bytes[i] >> 4]);
    id.push_back(kHex[bytes[i] & 0xF]);
  }
  return id;
}

// `plumb space scan` with arguments already read: the rest of space.ts's run, then printScan or
// the JSON.
int Scan(const ScanArgs& args) {
  if (args.positionals.size() != 1) {
    PrintError("Give one folder: plumb space scan DIR");
    return kExitUsage;
  }
  // An interrupted dedupe is recovered before any scan; Node does that (and says what it did).
  if (FolderHasEntries(JournalDir())) return HandOff();

  double minBytes = 1;
  if (args.minSize) {
    if (!ParseSize(*args.minSize, &minBytes)) {
      PrintError("Cannot read the size \"" + *args.minSize +
                 "\": use a number with a unit, like 512MB or 8GiB.");
      return kExitUsage;
    }
    minBytes = std::max(1.0, minBytes);
  }
  // core/space/scan.ts scanSettings, in its order.
  const std::string folder = Trim(args.positionals[0]);
  if (folder.empty()) {
    PrintError("Give a folder path.");
    return kExitFailed;
  }
  if (Utf16Length(folder) > kMaxPathChars) {
    PrintError("The folder path is longer than 4096 characters.");
    return kExitFailed;
  }
  if (!(minBytes <= kMaxSafeInteger)) {
    PrintError("minBytes must be a whole number of bytes, 0 or more.");
    return kExitFailed;
  }

  scan::Settings settings;
  settings.path = folder;
  settings.minBytes = static_cast<uint64_t>(minBytes);
  settings.includeHidden = !args.noHidden;
  settings.skipPackages = !args.all;
  settings.skipCloudFolders = !args.all;
  settings.scanId = RandomUuid();

  const CancelPtr cancel = std::make_shared<CancelFlag>();
  CancelOnInterrupt(cancel.get());
  // One self-overwriting status line on a terminal; nothing when stderr is a file or pipe.
  const bool terminal = StderrIsTerminal();
  scan::ProgressFn progress;
  if (terminal) {
    progress = [](const scan::Progress& p) { WriteErr("\r\x1b[K" + scan::ProgressLine(p)); };
  }

  scan::Result result;
  SysError err;
  if (!scan::RunScan(settings, cancel, progress, &result, &err)) {
    // Once cancelled, whatever stopped the scan reads as the cancel (scanFolder does the same).
    if (cancel->cancelled.load() || err.code == "ECANCELED") {
      PrintError("The scan was cancelled.");
      return kExitFailed;
    }
    PrintError(err.message);
    return err.code == "EUSAGE" ? kExitUsage : kExitFailed;
  }
  if (terminal) WriteErr("\r\x1b[K");
  const scan::Sink out = [](const char* data, size_t bytes) { WriteOut(data, bytes); };
  if (args.json) {
    scan::WriteJson(result, 2, out);
    WriteOut("\n", 1);
  } else {
    scan::WriteText(result, out);
  }
  FlushOut();
  return kExitOk;
}

}  // namespace

int Run(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[0] != "space" || args[1] != "scan") return HandOff();
  ScanArgs scanArgs;
  if (!ParseScanArgs(args, 2, &scanArgs)) return HandOff();
  return Scan(scanArgs);
}

}  // namespace front
}  // namespace plumb
