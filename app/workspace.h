// The one function that places the kernel list and the views: the window draws its panes where it says,
// and `shot --view all` draws the same rectangles, so the exported picture is what the screen shows.
#pragma once

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

struct WorkspaceLayout {
  Rect list;                                         // the kernel list
  std::vector<std::pair<std::string, Rect>> panes;   // every view shown, by name
  std::vector<Splitter> splitters;
  std::string maximized;                             // the view maximised when this was laid out; "" for none
};

// `area` is the window below the top bar; `gap` the space between panes (splitters sit in it). A maximised
// view fills everything right of the list.
WorkspaceLayout layout_workspace(Rect area, const Arrangement& a, float gap);

// Moves a splitter by `delta` pixels along its axis, keeping every pane at least `min_pane` pixels.
void drag_splitter(Arrangement* a, const Splitter& s, float delta, Rect area, float gap, float min_pane);

}  // namespace gs
