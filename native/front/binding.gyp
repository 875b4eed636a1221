{
  "targets": [
    {
      "target_name": "plumb_front",
      "type": "executable",
      "win_delay_load_hook": "false",
      "include_dirs": ["../src"],
      "sources": ["<!@(node ../sources.cjs --plain common scan front)"],
      "cflags_cc!": ["-fno-exceptions"],
      "conditions": [
        ["OS=='linux'", {
          "sources": ["<!@(node ../sources.cjs --plain posix linux front/posix)"],
          "defines": ["<!@(node ../probe-io.cjs defines)"],
          "cflags_cc": ["-std=c++17", "-O2", "-Wall", "-Wextra"],
          "libraries": ["<!@(node ../probe-io.cjs libraries)", "-lpthread"]
        }],
        ["OS=='mac'", {
          "sources": ["<!@(node ../sources.cjs --plain posix darwin front/posix)"],
          "xcode_settings": {
            "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
            "MACOSX_DEPLOYMENT_TARGET": "11.0",
            "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
            "OTHER_CPLUSPLUSFLAGS": ["-O2", "-Wall"]
          },
          "link_settings": {
            "libraries": ["-framework CoreFoundation", "-framework DiskArbitration", "-framework IOKit"]
          }
        }],
        ["OS=='win'", {
          "sources": ["<!@(node ../sources.cjs --plain win front/win)"],
          "defines": ["UNICODE", "_UNICODE", "WIN32_LEAN_AND_MEAN", "NOMINMAX", "_HAS_EXCEPTIONS=1"],
          "msvs_settings": {
            "VCCLCompilerTool": { "AdditionalOptions": ["/std:c++17"], "ExceptionHandling": 1 },
            "VCLinkerTool": { "SubSystem": 1 }
          }
        }]
      ]
    }
  ]
}
