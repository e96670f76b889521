// Every rung's shared-memory counters from Nsight Compute beside gemmscope's bank model over the rung's
// traced accesses (issue 9, item 3). Prints one markdown table, the one README.md carries.
//   bank_reconcile CAPTURE NCU_CSV [--check]
// --check (a CTest runs it on the committed files): exit 1, naming each, where model and hardware part: a
// rung that executes a kind of instruction the capture does not trace, an ideal (W - C) that differs, or
// conflicts the model counts that are not Nsight Compute's to within 1%. Conflicts Nsight Compute counts
// over a conflict-free model are not failures: they change from launch to launch (bench/NOTES.md, timing).
// CAPTURE: a gemmscope capture whose `smem` records trace the rungs (assets/captures/h200.json.gz).
// NCU_CSV: `ncu --csv --page raw` of the rungs' first launches (tools/bank_ncu.sh, step rungs;
// bench/results/bank_rungs_h100.csv).
//
// Scaling. A capture traces a sample of each site's executions (two warps of one block, the first
// k-iterations), so the model's total for a kind of instruction is its mean per traced instruction of that
// kind times the instructions of that kind Nsight Compute counted in the whole launch:
//   lds   ld.shared        smsp__sass_inst_executed_op_shared_ld
//   ldsm  ldmatrix         smsp__sass_inst_executed_op_ldsm
//   sts   st.shared        smsp__sass_inst_executed_op_shared_st
// ncu's _op_ld wavefronts and conflicts count LDS and LDSM together (tests/data/bank_probe_h100.tsv: an
// ldmatrix adds to both pairs), so the model's ld column is lds + ldsm. A kind ncu counts that the
// capture has no traced site of is marked "untraced": the rung executes instructions gemmscope does not
// trace (an epilogue that stages C through shared memory, for one). cp.async writes are left out: this
// ncu has no hardware wavefront counter for them and its conflict counter reads 0 for 16-byte cp.async.cg
// (banks.cpp, rule 6).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/bank_sites.h"
#include "core/capture.h"

namespace {

// One CSV line with double-quoted fields ("1,234" stays one field).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) f.push_back(cur), cur.clear();
    else cur += ch;
  }
  f.push_back(cur);
  return f;
}

double number(const std::string& s) {
  std::string digits;
  for (char ch : s)
    if (ch != ',') digits += ch;
  try {
    return digits.empty() ? 0 : std::stod(digits);
  } catch (...) {
    return 0;
  }
}

struct Measured {
  double ld_w = 0, ld_c = 0, st_w = 0, st_c = 0, ldsm_w = 0, ldsm_c = 0;
  double n_lds = 0, n_sts = 0, n_ldsm = 0, n_ldgsts = 0;
  std::string grid, block;
};

struct Mean {  // model wavefronts and conflicts per traced instruction of one kind
  double w = 0, c = 0;
  int n = 0;
  void add(const gs::BankReport& r) { w += r.wavefronts, c += r.conflicts, ++n; }
  double mw() const { return n ? w / n : 0; }
  double mc() const { return n ? c / n : 0; }
};

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  std::string s = b, out;
  for (size_t i = 0; i < s.size(); ++i) {  // thousands separators, as ncu prints them
    if (i > 0 && (s.size() - i) % 3 == 0 && s[i - 1] != '-') out += ',';
    out += s[i];
  }
  return out;
}

// "12,345 / 678": wavefronts / conflicts.
std::string pair(double w, double c) { return fmt(w) + " / " + fmt(c); }

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 4 && std::string(argv[3]) == "--check";
  if (argc != 3 && !check) {
    std::cerr << "usage: bank_reconcile CAPTURE NCU_CSV [--check]\n";
    return 2;
  }
  gs::Capture cap;
  try {
    cap = gs::read_capture(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "bank_reconcile: " << e.what() << "\n";
    return 1;
  }
  std::ifstream in(argv[2]);
  if (!in) {
    std::cerr << "bank_reconcile: cannot read " << argv[2] << "\n";
    return 1;
  }
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> head = csv_fields(line);
  auto col = [&](const std::string& name) {
    for (size_t i = 0; i < head.size(); ++i)
      if (head[i] == name) return int(i);
    return -1;
  };
  const int kname = col("Kernel Name"), kgrid = col("Grid Size"), kblock = col("Block Size");
  if (kname < 0) {
    std::cerr << "bank_reconcile: " << argv[2] << " has no 'Kernel Name' column\n";
    return 1;
  }
  // The rungs in capture order; ncu names a rung's kernel gs::<family>_<NN_name>::kernel<...>, printed
  // without the gs:: by --kernel-name-base demangled.
  std::vector<std::string> rungs;
  for (const gs::RunRecord& r : cap.runs)
    if (std::find(rungs.begin(), rungs.end(), r.kernel) == rungs.end()) rungs.push_back(r.kernel);
  std::map<std::string, Measured> measured;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    if (int(f.size()) != int(head.size())) continue;
    for (const std::string& rung : rungs) {
      std::string ns = rung;
      for (char& ch : ns)
        if (ch == '/') ch = '_';
      ns = ns.substr(0, ns.find('[')) + "::kernel<";
      if (f[kname].find(ns) == std::string::npos || measured.count(rung)) continue;
      if (rung.find('[') != std::string::npos) continue;  // variants share the base rung's kernel name
      auto get = [&](const char* m) { const int i = col(m); return i < 0 ? 0.0 : number(f[i]); };
      Measured m;
      m.ld_w = get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
      m.ld_c = get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
      m.st_w = get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
      m.st_c = get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
      m.ldsm_w = get("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum");
      m.ldsm_c = get("sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum");
      m.n_lds = get("smsp__sass_inst_executed_op_shared_ld.sum");
      m.n_sts = get("smsp__sass_inst_executed_op_shared_st.sum");
      m.n_ldsm = get("smsp__sass_inst_executed_op_ldsm.sum");
      m.n_ldgsts = get("smsp__sass_inst_executed_op_ldgsts.sum");
      m.grid = kgrid >= 0 ? f[kgrid] : "", m.block = kblock >= 0 ? f[kblock] : "";
      measured[rung] = m;
    }
  }

  std::cout << "| rung | loads (LDS+LDSM) W / C, ncu | model | ldmatrix W / C, ncu | model | stores W / C, ncu | model "
               "| instructions LDS / LDSM / STS / LDGSTS | note |\n"
               "|---|---|---|---|---|---|---|---|---|\n";
  std::vector<std::string> failures;
  size_t compared = 0;
  for (const std::string& rung : rungs) {
    const auto it = measured.find(rung);
    if (it == measured.end()) continue;
    ++compared;
    const Measured& m = it->second;
    Mean lds, ldsm, sts;
    for (const gs::SmemSite& s : gs::smem_sites(cap, rung))
      for (const gs::SmemSiteAccess& a : s.accesses) {
        if (s.op == gs::SmemOp::Lds) lds.add(a.report);
        else if (s.op == gs::SmemOp::Sts) sts.add(a.report);
        else if (gs::is_ldmatrix(s.op)) ldsm.add(a.report);
      }
    const double model_ld_w = lds.mw() * m.n_lds + ldsm.mw() * m.n_ldsm;
    const double model_ld_c = lds.mc() * m.n_lds + ldsm.mc() * m.n_ldsm;
    std::vector<std::string> notes;
    if (m.n_lds > 0 && lds.n == 0) notes.push_back("LDS untraced");
    if (m.n_ldsm > 0 && ldsm.n == 0) notes.push_back("LDSM untraced");
    if (m.n_sts > 0 && sts.n == 0) notes.push_back("STS untraced");
    if (m.n_lds + m.n_ldsm + m.n_sts + m.n_ldgsts == 0) notes.push_back("no LSU shared-memory instructions");
    std::string note;
    for (const std::string& n : notes) note += (note.empty() ? "" : "; ") + n;
    // The check: ideal wavefronts equal; the model's conflicts, where it has any, Nsight Compute's within 1%.
    auto compare = [&](const char* what, double ncu_w, double ncu_c, double model_w, double model_c) {
      const double ideal_ncu = ncu_w - ncu_c, ideal_model = model_w - model_c;
      if (std::abs(ideal_ncu - ideal_model) > 0.5)
        failures.push_back(rung + " " + what + ": ideal " + fmt(ideal_model) + ", Nsight Compute " + fmt(ideal_ncu));
      if (model_c > 0 && std::abs(model_c - ncu_c) > 0.01 * model_c)
        failures.push_back(rung + " " + what + ": conflicts " + fmt(model_c) + ", Nsight Compute " + fmt(ncu_c));
    };
    compare("loads", m.ld_w, m.ld_c, model_ld_w, model_ld_c);
    compare("ldmatrix", m.ldsm_w, m.ldsm_c, ldsm.mw() * m.n_ldsm, ldsm.mc() * m.n_ldsm);
    compare("stores", m.st_w, m.st_c, sts.mw() * m.n_sts, sts.mc() * m.n_sts);
    for (const std::string& n : notes)
      if (n.find("untraced") != std::string::npos) failures.push_back(rung + ": " + n);
    std::cout << "| " << rung << " | " << pair(m.ld_w, m.ld_c) << " | " << pair(model_ld_w, model_ld_c) << " | "
              << pair(m.ldsm_w, m.ldsm_c) << " | " << pair(ldsm.mw() * m.n_ldsm, ldsm.mc() * m.n_ldsm) << " | "
              << pair(m.st_w, m.st_c) << " | " << pair(sts.mw() * m.n_sts, sts.mc() * m.n_sts) << " | " << fmt(m.n_lds)
              << " / " << fmt(m.n_ldsm) << " / " << fmt(m.n_sts) << " / " << fmt(m.n_ldgsts) << " | " << note << " |\n";
  }
  if (check) {
    for (const std::string& f : failures) std::cerr << "bank_reconcile: " << f << "\n";
    if (compared == 0) std::cerr << "bank_reconcile: no rung of the capture is in " << argv[2] << "\n";
    if (!failures.empty() || compared == 0) return 1;
    std::cerr << "bank_reconcile: " << compared << " rungs, model equals Nsight Compute\n";
  }
  return 0;
}
