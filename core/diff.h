// Line diff between two texts: what the code view highlights between a rung and the one before it.
// A longest-common-subsequence diff over whole lines (the texts are rung files of a few hundred lines).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gs {

struct DiffLine {
  enum class Kind { Same, Added, Removed };
  Kind kind = Kind::Same;
  int old_line = -1;  // 0-based line in the old text (Same, Removed), -1 otherwise
  int new_line = -1;  // 0-based line in the new text (Same, Added), -1 otherwise
};

// The text cut at '\n' (a trailing newline makes no empty last line; "\r\n" counts as one break).
std::vector<std::string> split_lines(std::string_view text);

// The unified diff of old_lines -> new_lines: every line of both, in order, each marked Same, Added or
// Removed; within a change, the removed lines come before the added ones. Texts longer than max_lines
// lines each are compared by their common start and end only (the middle all removed and added), so the
// cost stays bounded for any input.
std::vector<DiffLine> line_diff(const std::vector<std::string>& old_lines, const std::vector<std::string>& new_lines,
                                size_t max_lines = 4000);

// For each line of a rung's source, the site its probe call records: a shared-memory site by the name the
// rung gives it (its `enum Site` and `kSmemSites` list, in the same order), a global one by the probe's
// name for it ("A", "B", "C"); "" for lines without one. How the code view tells which lines the bank and
// global-memory views can show.
std::vector<std::string> probe_site_lines(const std::vector<std::string>& lines);

// Indices into `diff` where a run of changes (Added or Removed lines) starts, in order.
std::vector<int> change_starts(const std::vector<DiffLine>& diff);

// Where a reader should first look in a rung's diff: the start of the run of changes with the most lines of code
// added (then the most removed), not counting blank lines, comments, a line whose comment alone changed, #include
// lines and the probe's bookkeeping (its site-name tables and GS_PROBE calls), which often change first (mma_f16/08 opened on its table of site names, 40 lines above the
// ldmatrix loads the rung is about); the first run where no run has any; -1 where nothing changed. An earlier run
// with code, starting at most `reach` lines of the diff before it, is taken instead, so that both show (mma_f16/08's
// A loads above its B loads).
int main_change(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
                const std::vector<std::string>& new_lines, int reach = 30);

// Where to open on the change starting at `at` in `diff`: at the top of the comment block right above it (comment
// lines of either text, up to `reach` of them, with at most two lines of code between, the declaration the change
// opens in), which is where a rung explains the change (mma_tf32/08's nine lines on ldmatrix for tf32, above the
// function whose loads they explain); `at` itself where no comment sits there or `at` < 0.
int comment_above(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
                  const std::vector<std::string>& new_lines, int at, int reach = 10);

// Whether `line` is a rung's "// Step: ..." line, where its file names its step.
bool is_step_line(const std::string& line);

// Where the code view opens on a rung: the line of the new text whose comment starts "// Step:", where the rung's
// file names its step itself (a diff cannot always tell: mma_f16/12 opened on its kernel's changed signature, its
// producer's tile loop further down; a first rung, against nothing, opened at its includes); else the comment above
// the main change; -1 where neither (the top). An index into `diff`.
int opening(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
            const std::vector<std::string>& new_lines);

}  // namespace gs
