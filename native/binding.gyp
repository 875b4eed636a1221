{
  "targets": [
    {
      "target_name": "plumb",
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      "defines": ["NAPI_VERSION=8", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "include_dirs": ["src"],
      "sources": ["<!@(node sources.cjs napi engine scan)"],
      "conditions": [
        ["OS=='linux'", {
          "sources": ["<!@(node sources.cjs posix linux)"],
          "defines": ["<!@(node probe-io.cjs defines)"],
          "cflags_cc": ["-std=c++17", "-O2", "-Wall", "-Wextra"],
          "libraries": ["<!@(node probe-io.cjs libraries)", "-lpthread", "-ldl"]
        }],
        ["OS=='mac'", {
          "sources": ["<!@(node sources.cjs posix darwin)"],
          "xcode_settings": {
            "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
            "MACOSX_DEPLOYMENT_TARGET": "11.0",
            "OTHER_CPLUSPLUSFLAGS": ["-O2", "-Wall"]
          },
          "link_settings": {
            "libraries": ["-framework CoreFoundation", "-framework DiskArbitration", "-framework IOKit"]
          }
        }],
        ["OS=='win'", {
          "sources": ["<!@(node sources.cjs win)"],
          "defines": ["UNICODE", "_UNICODE", "WIN32_LEAN_AND_MEAN", "NOMINMAX"],
          "libraries": ["ole32.lib", "setupapi.lib", "shell32.lib", "uuid.lib"],
          "msvs_settings": { "VCCLCompilerTool": { "AdditionalOptions": ["/std:c++17"] } }
        }]
      ]
    }
  ]
}
