// The native front door, bin/plumb: the `plumb` command as a small program that runs
// `plumb space scan` itself (scan/scan.h, without starting Node: a Node process alone holds about
// 40 MB) and hands every other command to Node (bin/plumb.js beside it), unchanged.
//
// front/main.cc decides and runs the scan; the per-OS files (front/posix/, front/win/) start
// Node, find the state folder, and talk to the terminal.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "io.h"

namespace plumb {
namespace front {

// The command, given its arguments (without the program name) as UTF-8; returns the exit code.
// The per-OS entry point keeps the arguments as the OS passed them, for HandOff.
int Run(const std::vector<std::string>& args);

// ── Per-OS (front/posix/system.cc, front/win/system.cc) ─────────────────────────────────────

// Runs `node <this program's folder>/plumb.js` with the original arguments (PLUMB_NODE names
// another node) and returns its exit code, or replaces this process with it where the OS can
// (POSIX exec). When node cannot be started, says so on stderr and returns 1.
int HandOff();

// app/core/space/journal.ts journalDir(): where an interrupted dedupe leaves its journal.
std::string JournalDir();

// True when `dir` exists and holds anything (a journal left by an interrupted dedupe).
bool FolderHasEntries(const std::string& dir);

// Whether stderr is a terminal (then the progress line is shown on it).
bool StderrIsTerminal();

// Ctrl-C and SIGTERM (console close on Windows) set `flag`; a second one exits at once with 130,
// as the Node CLI does.
void CancelOnInterrupt(CancelFlag* flag);

// Raw bytes to stdout / stderr (no newline translation).
void WriteOut(const char* data, size_t bytes);
void WriteErr(const std::string& text);
void FlushOut();

}  // namespace front
}  // namespace plumb
