// Paths on Windows are UTF-16, unpaired surrogates allowed; the backends hold them as WTF-8
// (win/paths.h), which carries those too (engine/utf.h).
#include "engine/utf.h"
#include "plumb.h"

namespace plumb {

std::u16string PathToUtf16(const std::string& path) {
  return Utf16FromUtf8(path, Utf8Flavor::kWtf8);
}

std::string PathFromUtf16(const std::u16string& text) {
  return Utf8FromUtf16(text, Utf8Flavor::kWtf8);
}

bool PathIsUtf8(const std::string& path) { return IsUtf8(path); }

}  // namespace plumb
