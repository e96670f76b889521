// A fragment layout as a standalone TikZ picture (`gemmscope layout --format tex`): the operand's cells in
// rows and columns, each filled with the colour of the lane holding it (the views' lane palette) and labelled
// lane:elem, the form CuTe's print_latex figures use in many CUDA slide decks. It compiles on its own with
// pdflatex (documentclass standalone).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "viz/views.h"

namespace gs {

namespace {

std::string rgb(Color c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%d,%d,%d", c.r, c.g, c.b);
  return buf;
}

// TeX specials in a label written as text (op names hold '.' and digits only, but a traced file is input).
std::string tex_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': case '}': case '$': case '&': case '#': case '_': case '%': out += '\\'; out += ch; break;
      case '^': out += "\\^{}"; break;
      case '~': out += "\\~{}"; break;
      default: out += (static_cast<unsigned char>(ch) < 32 ? ' ' : ch);
    }
  }
  return out;
}

}  // namespace

std::string layout_tikz(const FragmentLayout& l, const Theme& t) {
  // Every (lane, elem) that holds a cell, per cell in register order (wmma fragments hold some twice).
  std::map<std::pair<int, int>, std::vector<const LayoutCell*>> at;
  for (const LayoutCell& c : l.cells)
    if (c.row >= 0 && c.col >= 0 && c.row < l.rows && c.col < l.cols) at[{c.row, c.col}].push_back(&c);
  std::string s;
  s += "% gemmscope layout: " + tex_escape(l.op) + ", operand " + tex_escape(l.operand) + " (" + tex_escape(l.source) +
       "), " + std::to_string(l.rows) + " x " + std::to_string(l.cols) +
       ". Each cell: the lane holding it and the element's index in that lane's fragment (lane:elem).\n";
  s += "\\documentclass[tikz,border=4pt]{standalone}\n\\usepackage{tikz}\n\\begin{document}\n";
  s += "\\begin{tikzpicture}[x=1cm,y=-0.6cm,every node/.style={font=\\sffamily\\footnotesize,align=center}]\n";
  for (int lane = 0; lane < 32; ++lane) s += "\\definecolor{lane" + std::to_string(lane) + "}{RGB}{" + rgb(lane_color(lane, t)) + "}\n";
  s += "\\definecolor{ink}{RGB}{" + rgb(t.text) + "}\n\\definecolor{grid}{RGB}{" + rgb(t.grid) + "}\n";
  s += "\\node[anchor=south west,font=\\sffamily\\bfseries] at (0,-1.2) {" + tex_escape(l.op) + " " + tex_escape(l.operand) +
       " (" + tex_escape(l.source) + "): lane:elem};\n";
  for (const auto& [rc, holders] : at) {
    const int row = rc.first, col = rc.second, lane = holders.front()->lane;
    const Color fill = lane_color(lane, t);
    std::string label;
    for (const LayoutCell* h : holders)
      label += (label.empty() ? "" : "\\\\") + std::to_string(h->lane) + ":" + std::to_string(h->elem);
    s += "\\fill[lane" + std::to_string(lane % 32) + "] (" + std::to_string(col) + "," + std::to_string(row) + ") rectangle ++(1," +
         std::to_string(1) + ");\n";
    s += "\\node[text=" + std::string(text_on(fill).r > 128 ? "white" : "black") + "] at (" + std::to_string(col) +
         ".5," + std::to_string(row) + ".5) {" + label + "};\n";
  }
  s += "\\draw[grid] (0,0) grid (" + std::to_string(l.cols) + "," + std::to_string(l.rows) + ");\n";
  for (int c = 0; c < l.cols; ++c)
    s += "\\node[text=ink] at (" + std::to_string(c) + ".5,-0.5) {" + std::to_string(c) + "};\n";
  for (int r = 0; r < l.rows; ++r)
    s += "\\node[text=ink,anchor=east] at (-0.1," + std::to_string(r) + ".5) {" + std::to_string(r) + "};\n";
  s += "\\end{tikzpicture}\n\\end{document}\n";
  return s;
}

}  // namespace gs
