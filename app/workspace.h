// The one function that places the kernel list and the views: the window draws its panes where it says,
// and `shot --view all` draws the same rectangles, so the exported picture is what the screen shows.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/state.h"
#include "viz/canvas.h"

namespace gs {

// A boundary the user can drag: the kernel list's right edge (column -1), the edge right of a column
// (row -1), or the edge under a view of a column.
struct Splitter {
  Rect rect;
  int column = -1, row = -1;
  bool vertical() const { return row < 0; }  // dragged left and right
};

// A column too short for its stack of views shows one at a time, under a strip of tabs naming them all; so do
// neighbouring columns folded into one where the window is too narrow for each to have its own.
struct TabStrip {
  Rect rect;                        // the strip, above the pane of the view shown
  int column = 0;                   // the arrangement's column (the first of those folded together)
  std::vector<std::string> views;   // the column's views, top to bottom as arranged
  std::string shown;
  int rows = 1;                     // rows of tabs: more than one where their labels are too wide for one
};

struct WorkspaceLayout {
  Rect list;                                         // the kernel list
  std::vector<std::pair<std::string, Rect>> panes;   // every view shown, by name
  std::vector<Splitter> splitters;
  std::vector<TabStrip> tabs;                        // one per column shown as tabs
  std::string maximized;                             // the view maximised when this was laid out; "" for none
};

// How small a pane each view can still draw in, and the tab strip's height: a column whose views cannot all
// have their height shows them as tabs, and columns narrower than their views need fold together. The default (no
// limits) never makes tabs.
struct PaneLimits {
  struct Need {
    std::string view;
    float min_h = 0;
    float narrow_w = 0, narrow_min_h = 0;  // in a pane narrower than narrow_w it needs narrow_min_h instead
    float min_w = 0;                       // the narrowest column it draws in (narrower: columns fold together)
  };
  float tab_h = 0;           // one row of tabs
  std::function<float(const std::string&)> tab_w;  // a view's tab at its label's width (none: one row, labels cut)
  float tab_gap = 2;         // between two tabs of a row
  float list_min_w = 0;     // the kernel list's width where the views can spare it (its share of a small window
                            // at a projector's zoom leaves its names a few letters)
  std::vector<Need> needs;  // a view not named here needs nothing
  float need(const std::string& view, float width) const;
  float need_w(const std::string& view) const;

 private:
  const Need* find(const std::string& view) const;
};

// `area` is the window below the top bar; `gap` the space between panes (splitters sit in it). A maximised
// view fills everything right of the list.
WorkspaceLayout layout_workspace(Rect area, const Arrangement& a, float gap, const PaneLimits& limits = {});

// Where each tab of a strip goes, in the strip's rows (their order kept, row after row, as even in width as they
// can be): as wide as its label (`label_w`, plus `pad` each side) while a row's tabs fit, else that row's widest
// cut to one width, the largest at which all fit (their labels then cut to fit).
std::vector<Rect> place_tabs(const TabStrip& strip, const std::vector<float>& label_w, float pad, float gap);

// How many rows of tabs (at most `max_rows`) hold tabs `want` wide, `gap` apart, whole in `room`; `max_rows` where
// none does (the widest are then cut).
int tab_rows(const std::vector<float>& want, float room, float gap, int max_rows = 3);

// Whether dragging `s` a little either way moves anything drawn: where every pane on both sides is as narrow as its
// view allows (a laptop's window), the gap does not move, and the window says why.
bool splitter_moves(const Arrangement& a, const Splitter& s, Rect area, float gap, float min_pane,
                    const PaneLimits& limits = {});

// Where a view dragged by its title or tab would go, by where the pointer is over another pane: its left or right
// quarter puts the view in a column of its own on that side of the pane's column; its upper or lower half, in the
// pane's column above or below that pane's view. Over a strip of tabs, among that column's tabs (last).
struct DropTarget {
  enum Side { kNone, kAbove, kBelow, kLeft, kRight };
  Side side = kNone;
  std::string onto;  // the view beside which the dragged one goes
  Rect zone;         // the part of the window the drop takes, for the window to show while dragging
  bool among_tabs = false;  // over a strip of tabs: after its last
  bool valid() const { return side != kNone; }
};
DropTarget drop_target(const WorkspaceLayout& l, const Arrangement& a, const std::string& dragged, Vec2 pointer);

// Moves `view` where `t` says (a column left empty goes, its width to the others; the new row or column takes an
// even share of its column or of the width). False where the arrangement would not change.
bool move_view(Arrangement* a, const std::string& view, const DropTarget& t);

// What a drop would leave in sight, laid out as the window would lay it out: whether the moved view ends up a tab
// (the window too small for it beside the others), and how many other views that had panes become tabs (columns
// folding where a new one leaves them too narrow). `changes`: whether the drop moves anything at all.
struct DropOutcome {
  bool changes = false, as_tab = false;
  int folded = 0;
};
DropOutcome drop_outcome(Rect area, const Arrangement& a, const std::string& view, const DropTarget& t, float gap,
                         const PaneLimits& limits = {});

// Whether the user changed which views share a column or their order (not their sizes): the top bar then
// offers the default arrangement back.
bool rearranged(const Arrangement& a, const std::vector<std::string>& views);

// Moves a splitter by `delta` pixels along its axis, keeping every pane at least `min_pane` pixels.
void drag_splitter(Arrangement* a, const Splitter& s, float delta, Rect area, float gap, float min_pane,
                   const PaneLimits& limits = {});

}  // namespace gs
