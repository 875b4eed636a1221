// UTF-8 ⇄ UTF-16 without loss, for names the OS gives as bytes (Linux, macOS: any bytes but '/'
// and NUL) or as UTF-16 units (Windows: any units, unpaired surrogates included), and JavaScript
// holds as UTF-16 strings. Plain C++; each OS picks its flavor in PathToUtf16 (plumb.h).
#pragma once

#include <string>

namespace plumb {

enum class Utf8Flavor {
  // Bytes: each byte of the input that does not begin well-formed UTF-8 becomes the unpaired
  // surrogate U+DC00 + byte (U+DC80..U+DCFF, Python's surrogateescape, PEP 383), and such a
  // surrogate becomes its byte again, so every byte string comes back as it was.
  kEscapedBytes,
  // WTF-8: an unpaired surrogate is encoded like any code point (3 bytes), so every UTF-16
  // string comes back as it was.
  kWtf8,
};

std::u16string Utf16FromUtf8(const std::string& bytes, Utf8Flavor flavor);
std::string Utf8FromUtf16(const std::u16string& units, Utf8Flavor flavor);

// Whether `bytes` is well-formed UTF-8 (surrogates excluded): both flavors read it as UTF-8 does.
bool IsUtf8(const std::string& bytes);

}  // namespace plumb
