// The window's settings file: arrangement, theme, zoom and selection, kept between runs. Written
// atomically; a damaged or foreign file falls back to defaults with a notice, never an error.
#pragma once

#include <string>

#include "app/state.h"

namespace gs {

// $XDG_CONFIG_HOME/gemmscope/settings.json, else ~/.config/gemmscope/settings.json; "" with no home.
std::string settings_path();

// Where exports go: the folder the user chose (st.exports_dir), else "exports" beside the settings file (in the
// current folder where there is no settings file). Absolute.
std::string exports_folder(const ViewState& st);

// A folder typed in the window, checked: "~/" stands for $HOME, a relative path is taken from the current
// folder, a missing folder is created. True with *dir set to the absolute path; false with *error one sentence
// naming the folder (empty, a file rather than a folder, cannot be created, not writable).
bool choose_exports_folder(const std::string& typed, std::string* dir, std::string* error);

// Reads `path` into `st` (only what the file holds; the rest stays as it is). Returns false when there
// is no file; on a damaged one leaves `st` untouched, returns true and says what was wrong in *notice.
bool load_settings(const std::string& path, ViewState* st, std::string* notice);

// The settings `st` holds, as the file stores them.
std::string settings_json(const ViewState& st);

// Writes settings_json(st) to `path` (creating its folder); false with *error set on failure.
bool save_settings(const std::string& path, const ViewState& st, std::string* error);

}  // namespace gs
