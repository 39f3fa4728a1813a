// The browser page (build/web-page) in a real browser: Debian's headless Chromium driven by
// puppeteer-core (tests/web/page_driver.mjs), the page served by `python3 -m http.server`
// as the README serves it, a small real network exported as a user would (the CTest
// fixture tests/web/setup_fixture.cmake). Everything the page does is checked against the
// native side: moves by `veletas show` / `veletas moves`, the network by LibTorch (the
// C++ NetworkEvaluator and the TorchScript module), the search by play::TurnSearcher.
// Any console error, page or worker error, or failed request fails a test. Screenshots
// and each scenario's result.json are kept in VELETAS_WEB_ARTIFACTS/<test>/.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/base/checkpoint_file.h"
#include "model/base/features.h"
#include "model/network_evaluator.h"
#include "play/turn_search.h"
#include "rules/notation.h"
#include "search/fake_evaluators.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

#if !defined(VELETAS_SOURCE_DIR) || !defined(VELETAS_WEB_PAGE_DIR) ||   \
    !defined(VELETAS_WEB_FIXTURE) || !defined(VELETAS_PUPPETEER_DIR) || \
    !defined(VELETAS_CHROMIUM) || !defined(VELETAS_BINARY) || !defined(VELETAS_WEB_ARTIFACTS)
#error "the paths of tests/web/CMakeLists.txt are needed"
#endif

namespace veletas::web {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test_support::ReadAll;
using test_support::RunCommand;
using test_support::TempDir;

const std::string kFixture = VELETAS_WEB_FIXTURE;

std::string Quote(const std::string& s) { return "'" + s + "'"; }

class Browser : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kFixture + "/model/model.onnx") &&
                fs::exists(std::string(VELETAS_PUPPETEER_DIR) + "/node_modules/puppeteer-core"))
        << "the fixture is missing: run these tests through ctest (fixture web_browser)";
    ASSERT_TRUE(fs::exists(std::string(VELETAS_WEB_PAGE_DIR) + "/index.html"))
        << "the page is not built (cmake --build build --target web)";
    // What http.server serves: the page, the model, and the test's own files.
    fs::create_directory_symlink(VELETAS_WEB_PAGE_DIR, root_.Path() / "page");
    fs::create_directory_symlink(kFixture + "/model", root_.Path() / "model");
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    artifacts_ = std::string(VELETAS_WEB_ARTIFACTS) + "/" + info->name();
    fs::remove_all(artifacts_);
    fs::create_directories(artifacts_);
  }

  // Runs `scenario` of page_driver.mjs with `args`; its result. Fails the test when the
  // driver fails or the page logged an error.
  // `server`: "plain" (python3 -m http.server) or "isolated" (scripts/serve_web.py: COOP and
  // COEP headers, so the page is cross-origin isolated).
  json Run(const std::string& scenario, const json& args, const std::string& tag = "",
           const std::string& server = "plain") {
    const std::string out = artifacts_ + (tag.empty() ? "" : "/" + tag);
    const std::string command =
        "node " + Quote(std::string(VELETAS_SOURCE_DIR) + "/tests/web/page_driver.mjs") +
        " --puppeteer " + Quote(VELETAS_PUPPETEER_DIR) + " --chromium " + Quote(VELETAS_CHROMIUM) +
        " --root " + Quote(root_.Str()) + " --scenario " + scenario + " --out " + Quote(out) +
        " --server " + server + " --args " + Quote(args.dump());
    const test_support::CommandOutput o = RunCommand(command, root_);
    EXPECT_EQ(o.code, 0) << o.err << o.out;
    const json r = json::parse(ReadAll(out + "/result.json"), nullptr, false);
    EXPECT_FALSE(r.is_discarded()) << "no result from the driver:\n" << o.err;
    if (r.is_discarded()) return json::object();
    EXPECT_TRUE(r["failure"].is_null()) << r["failure"];
    EXPECT_EQ(r["console_errors"], json::array()) << r["console_errors"].dump(1);
    std::cout << scenario << ": " << r.value("seconds", 0.0) << " s in "
              << r.value("user_agent", "") << ", files in " << out << "\n";
    return r;
  }

  // `veletas show` replays the whole record (every move checked by the native rules); its
  // output (the final position and the winner).
  std::string NativeShow(const std::string& rules, int size, const json& moves) {
    std::string record;
    for (const auto& m : moves) record += (record.empty() ? "" : " ") + m.get<std::string>();
    const auto o = RunCommand(std::string(VELETAS_BINARY) + " show --rules " + rules + " --size " +
                                  std::to_string(size) + " " + Quote(record),
                              root_);
    EXPECT_EQ(o.code, 0) << "the page's game is not legal by the native rules:\n"
                         << o.err << "\n"
                         << record;
    return o.out;
  }

  // The lines `veletas moves` prints after the first `plies` moves.
  std::vector<std::string> NativeMoves(const std::string& rules, int size, const json& moves,
                                       int plies) {
    std::string record;
    for (int i = 0; i < plies; ++i) record += (i ? " " : "") + moves[i].get<std::string>();
    const auto o = RunCommand(std::string(VELETAS_BINARY) + " moves --rules " + rules + " --size " +
                                  std::to_string(size) + " " + Quote(record),
                              root_);
    EXPECT_EQ(o.code, 0) << o.err;
    std::vector<std::string> lines;
    std::istringstream in(o.out);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  void ExpectScreenshots(const json& r, int count) {
    ASSERT_EQ(r["screenshots"].size(), static_cast<size_t>(count)) << r["screenshots"];
    for (const auto& f : r["screenshots"]) {
      const std::string png = ReadAll(f.get<std::string>());
      EXPECT_GT(png.size(), 2000u) << f;
      EXPECT_EQ(png.substr(1, 3), "PNG") << f;
    }
  }

  json ExpectNetworkMatchesLibTorch(const std::string& server, bool padded);

  TempDir root_;
  std::string artifacts_;
};

// The page's network (model.onnx in onnxruntime-web, inputs encoded by the WebAssembly
// feature encoding) gives LibTorch's outputs on positions of every kind of sub-decision:
// the same positions and planes as natively, the raw outputs of the TorchScript module
// (export_onnx.py --reference) and the C++ NetworkEvaluator's legal softmax and value, all
// within 1e-4, on the model's canvas and, if `padded`, a larger one (the board padded into a
// 9x9 canvas), the page served by `server` (see Run). Returns the page's engine report of
// the last run: {threads, isolated, status}.
json Browser::ExpectNetworkMatchesLibTorch(const std::string& server, bool padded) {
  const auto meta = model::ReadCheckpointMeta(kFixture + "/g0.ckpt");
  EXPECT_TRUE(meta.ok()) << meta.error();
  if (!meta.ok()) return json();
  const model::ModelSpec spec{meta.value().rules, meta.value().size, meta.value().arch};
  model::NetConfig runtime;
  runtime.threads = 1;
  // The exported graph is LibTorch's.
  runtime.inference_precision = model::InferencePrecision::kTorch;
  auto evaluator = model::NetworkEvaluator::Load(kFixture + "/g0.ckpt", spec, runtime);
  EXPECT_TRUE(evaluator.ok()) << evaluator.error();
  if (!evaluator.ok()) return json();
  json engine;
  const std::string rules = rules::RuleSetName(spec.rules);
  std::vector<int> canvases = {spec.size};
  if (padded) canvases.push_back(9);
  for (int canvas : canvases) {
    const int count = canvas == spec.size ? 48 : 12;
    const json r = Run(
        "network",
        {{"rules", rules}, {"size", spec.size}, {"count", count}, {"seed", 11}, {"canvas", canvas}},
        server + "-canvas" + std::to_string(canvas), server);
    engine = r.value("engine", json());
    if (!r.contains("hashes")) {
      ADD_FAILURE() << "no network outputs from the page";
      return engine;
    }
    const auto positions = model::SamplePositions(spec.rules, spec.size, count, 11);
    EXPECT_EQ(r["hashes"].size(), positions.size());
    if (r["hashes"].size() != positions.size()) return engine;
    for (size_t i = 0; i < positions.size(); ++i) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx",
                    static_cast<unsigned long long>(positions[i].Hash()));
      EXPECT_EQ(r["hashes"][i], hex) << i;
    }
    model::EncodedBatch batch;
    model::EncodeBatch(positions, canvas, batch);
    EXPECT_EQ(r["planes"].get<std::vector<float>>(), batch.planes);

    // LibTorch's TorchScript module on the same input.
    json c;
    c["batches"] = {
        {{"shape", {count, model::kNumPlanes, canvas, canvas}}, {"input", batch.planes}}};
    std::ofstream(root_.File("case.json")) << c.dump();
    const auto o = RunCommand("/usr/bin/python3 " + std::string(VELETAS_SOURCE_DIR) +
                                  "/scripts/export_onnx.py " + kFixture + "/model --out " +
                                  root_.File("again.onnx") + " --reference " +
                                  root_.File("case.json") + " " + root_.File("ref.json"),
                              root_);
    EXPECT_EQ(o.code, 0) << o.err;
    if (o.code != 0) return engine;
    const json ref = json::parse(ReadAll(root_.File("ref.json")))["batches"][0];
    for (const char* name : {"policy_logits", "value", "aux_logits"}) {
      const auto web = r[name].get<std::vector<double>>();
      const auto lib = ref[name].get<std::vector<double>>();
      EXPECT_EQ(web.size(), lib.size()) << name;
      if (web.size() != lib.size()) continue;
      double worst = 0;
      for (size_t i = 0; i < web.size(); ++i) worst = std::max(worst, std::abs(web[i] - lib[i]));
      EXPECT_LE(worst, 1e-4) << name;
      std::cout << "canvas " << canvas << " " << name << ": max |page - LibTorch| " << worst
                << "\n";
    }
    // The evaluator's outputs: NetworkEvaluator natively, DecodeOutput in the page.
    if (canvas == spec.size) {
      std::vector<search::EvalOutput> native(positions.size());
      evaluator.value()->Evaluate(positions, native);
      double worst = 0;
      for (size_t i = 0; i < positions.size(); ++i) {
        for (int a = 0; a < rules::kMaxActions; ++a) {
          const double web = r["policy"][i * rules::kMaxActions + a].get<double>();
          worst = std::max(worst, std::abs(web - native[i].policy[a]));
        }
        worst = std::max(worst, std::abs(r["decoded_value"][i].get<double>() - native[i].value));
      }
      EXPECT_LE(worst, 1e-4);
      std::cout << "legal softmax and value: max |page - NetworkEvaluator| " << worst << "\n";
    }
  }
  return engine;
}

// Served as the README's plain way (python3 -m http.server), the page is not cross-origin
// isolated and says so; its network runs on one thread and matches LibTorch.
TEST_F(Browser, NetworkMatchesLibTorch) {
  const json engine = ExpectNetworkMatchesLibTorch("plain", true);
  EXPECT_EQ(engine.value("isolated", true), false) << engine;
  EXPECT_EQ(engine.value("threads", 0), 1) << engine;
  EXPECT_NE(
      engine.value("status", "").find("onnxruntime-web on 1 thread (not cross-origin isolated"),
      std::string::npos)
      << engine;
}

// Served by scripts/serve_web.py (COOP/COEP headers) the page is cross-origin isolated, runs
// the network on more than one thread (the browser's cores, at most 8; the test machines
// have at least 2), says so, and still matches LibTorch.
TEST_F(Browser, NetworkRunsMultiThreadedWhenCrossOriginIsolated) {
  const json engine = ExpectNetworkMatchesLibTorch("isolated", false);
  EXPECT_EQ(engine.value("isolated", false), true) << engine;
  EXPECT_GT(engine.value("threads", 0), 1) << engine;
  const std::string status = engine.value("status", "");
  EXPECT_NE(status.find("threads (cross-origin isolated)"), std::string::npos) << engine;
  EXPECT_NE(
      status.find("onnxruntime-web on " + std::to_string(engine.value("threads", 0)) + " threads"),
      std::string::npos)
      << engine;
}

// With the deterministic test evaluator (search::HashEvaluator) the page's search, stepped
// from JavaScript through the WebAssembly C API, plays exactly the native search's game
// (play::TurnSearcher, same seed and budget, one tree for the whole game): PUCT on 7x7
// standard and Gumbel on 9x9 classic. The page's legal moves at several positions are
// `veletas moves`'s.
TEST_F(Browser, SearchPlaysTheNativeSearchsMoves) {
  struct Case {
    const char* algorithm;
    rules::RuleSet rules;
    int size;
    int visits;
  };
  for (const Case& c : {Case{"puct", rules::RuleSet::kStandard, 7, 32},
                        Case{"gumbel", rules::RuleSet::kClassic, 9, 16}}) {
    const std::string rules_name = rules::RuleSetName(c.rules);
    const json r = Run("watch",
                       {{"query", "evaluator=hash:7&seed=3&leaves=8&delay=0"},
                        {"algorithm", c.algorithm},
                        {"rules", rules_name},
                        {"size", c.size},
                        {"strength", c.visits},
                        {"human", "both"},
                        {"mid", 10},
                        {"legal_at", {0, 2, 12}}},
                       c.algorithm);
    ASSERT_TRUE(r.contains("moves"));
    search::HashEvaluator eval(7);
    search::SearchConfig config = search::ForPlay(search::SearchConfig{});
    config.algorithm =
        std::string(c.algorithm) == "puct" ? search::Algorithm::kPuct : search::Algorithm::kGumbel;
    config.leaves_per_batch = 8;
    auto native = play::TurnSearcher::Neural(eval, config, 3);
    rules::Position pos = rules::Position::Initial(c.rules, c.size);
    std::vector<std::string> moves;
    while (!pos.IsTerminal()) {
      const play::TurnAnalysis a = native->Search(pos, {c.visits, 0}, 5);
      moves.push_back(rules::TurnToString(pos, a.best.turn));
      rules::ApplyTurn(pos, a.best.turn);
    }
    EXPECT_EQ(r["moves"].get<std::vector<std::string>>(), moves) << c.algorithm;
    EXPECT_EQ(r["winner"], rules::ColorName(*pos.Winner()));
    // Legal moves as `veletas moves` lists them.
    ASSERT_FALSE(r["legal"].empty());
    for (const auto& [ply, list] : r["legal"].items()) {
      EXPECT_EQ(list.get<std::vector<std::string>>(),
                NativeMoves(rules_name, c.size, r["moves"], std::stoi(ply)))
          << "after " << ply << " moves";
    }
  }
}

// The network plays a whole game against itself in the page (engine against engine): every
// move legal by the native rules, the game over with the winner the native rules give,
// the engine's win rate and candidates shown; screenshots at setup, mid-game and the end.
TEST_F(Browser, NetworkPlaysAWholeGameAgainstItself) {
  const json r =
      Run("watch",
          {{"query", "model=../model/&delay=0"}, {"strength", 16}, {"human", "none"}, {"mid", 12}});
  ASSERT_TRUE(r.contains("moves"));
  const std::string shown = NativeShow("standard", 7, r["moves"]);
  const std::string winner = r["winner"].get<std::string>();
  EXPECT_NE(shown.find(std::string("winner: ") + (winner == "black" ? "Black" : "White")),
            std::string::npos)
      << shown;
  EXPECT_NE(r["prompt"].get<std::string>().find("Game over"), std::string::npos) << r["prompt"];
  EXPECT_NE(r["shown"].get<std::string>().find("win rate"), std::string::npos) << r["shown"];
  ASSERT_FALSE(r["analyses"].empty());
  for (const auto& a : r["analyses"]) {
    if (a.is_null()) continue;
    EXPECT_GE(a["win_rate"].get<double>(), 0.0);
    EXPECT_LE(a["win_rate"].get<double>(), 1.0);
    EXPECT_FALSE(a["candidates"].empty());
    EXPECT_LE(a["mean_batch"].get<double>(), 8.0);
  }
  ExpectScreenshots(r, 3);
}

// The Network menu: a shipped folder (networks/NAME/ with its card, the fixture's export)
// listed by web/networks.cmake as the build lists networks/, chosen in the menu over a model
// loaded by URL, and played engine against engine to the end of a legal game.
TEST_F(Browser, PlaysTheShippedNetworkFromTheMenu) {
  const fs::path folder = root_.Path() / "networks" / "standard-7x7";
  fs::create_directories(folder);
  fs::copy_file(kFixture + "/model/model.json", folder / "model.json");
  fs::copy_file(kFixture + "/model/model.onnx", folder / "model.onnx");
  std::ofstream(folder / "card.json")
      << json{{"format", "veletas-network-card v1"},
              {"name", "standard-7x7"},
              {"rules", "standard"},
              {"size", 7},
              {"generation", 0},
              {"results", {{{"opponent", "random"}, {"games", 2}, {"wins", 1}, {"losses", 1}}}}}
             .dump();
  const auto listed = RunCommand("cmake -DNETWORKS=" + Quote((root_.Path() / "networks").string()) +
                                     " -DOUT=" + Quote(root_.File("shipped")) + " -P " +
                                     Quote(std::string(VELETAS_SOURCE_DIR) + "/web/networks.cmake"),
                                 root_);
  ASSERT_EQ(listed.code, 0) << listed.err;
  const json r =
      Run("watch", {{"query", "model=../model/&networks=../shipped/networks.json&delay=0"},
                    {"network", "standard-7x7"},
                    {"strength", 16},
                    {"human", "none"},
                    {"mid", 12}});
  ASSERT_TRUE(r.contains("network") && r["network"].is_object()) << r.dump(1);
  EXPECT_NE(std::find(r["network"]["menu"].begin(), r["network"]["menu"].end(), "standard-7x7"),
            r["network"]["menu"].end())
      << r["network"];
  EXPECT_EQ(r["network"]["info"].get<std::string>().rfind(
                "shipped network standard-7x7: standard 7x7", 0),
            0u)
      << r["network"];
  const std::string shown = NativeShow("standard", 7, r["moves"]);
  EXPECT_NE(shown.find("winner: "), std::string::npos) << shown;
  ExpectScreenshots(r, 3);
}

// A person (scripted: random highlighted targets, the pass-like buttons) plays the first
// player against the network by clicking: a refused square, a setup shooter taken back, a
// chosen shooter cancelled, an undo of two moves, the record reloaded (with a prefix as
// `veletas play` prints it), and a bad record refused with the move named.
TEST_F(Browser, PersonClicksAGameAgainstTheNetwork) {
  const json r =
      Run("scripted", {{"query", "model=../model/&delay=0"}, {"strength", 16}, {"seed", 5}});
  ASSERT_TRUE(r.contains("moves"));
  NativeShow("standard", 7, r["moves"]);
  const json& k = r["checks"];
  EXPECT_TRUE(k["takeback"]);
  EXPECT_TRUE(k["cancel"]);
  EXPECT_NE(k["refused"]["error"].get<std::string>().find("not a legal choice"), std::string::npos)
      << k["refused"];
  EXPECT_TRUE(k["refused"]["same"]);
  EXPECT_EQ(k["undo"]["before"].get<int>() - k["undo"]["after"].get<int>(), 2) << k["undo"];
  EXPECT_TRUE(k["reload"]["same"]) << k["reload"];
  EXPECT_EQ(k["reload"]["error"], "");
  EXPECT_NE(k["bad_record"].get<std::string>().find("move 2 \"zz9\""), std::string::npos)
      << k["bad_record"];
  EXPECT_GT(k["clicks"].get<int>(), 20);
  // "You play" names the colour each seat has: swapped by the pie rule, the first is White.
  EXPECT_EQ(k["seats_after_swap"], json({"first (White)", "second (Black)"})) << k;
  EXPECT_EQ(k["seats_before_swap"], json({"first (Black)", "second (White)"})) << k;
  EXPECT_LE(k["narrow"]["page"].get<int>(), 400) << k["narrow"];
  EXPECT_LE(k["narrow"]["menu"].get<int>(), 400) << k["narrow"];
  ExpectScreenshots(r, 3);
}

// A match's records (veletas match: NAME.records.txt with NAME.json) opened as local files
// and stepped through to the end with the network's analysis: every position is the native
// one, every best move is legal there.
TEST_F(Browser, ReplaysAMatchWithAnalysis) {
  const std::string matches = kFixture + "/run/matches/";
  const json r =
      Run("replay", {{"query", "model=../model/&mode=replay&delay=0"},
                     {"files", {matches + "web-test.records.txt", matches + "web-test.json"}},
                     {"game", 1}});
  ASSERT_TRUE(r.contains("positions"));
  EXPECT_EQ(r["error"], "");
  ASSERT_EQ(r["labels"].size(), 4u);
  EXPECT_NE(r["labels"][1].get<std::string>().find("uct_40"), std::string::npos) << r["labels"];
  std::string record;
  {
    std::istringstream in(ReadAll(matches + "web-test.records.txt"));
    for (int i = 0; i < 2; ++i) std::getline(in, record);
  }
  auto game = rules::PlayRecord(rules::RuleSet::kStandard, 7, record);
  ASSERT_TRUE(game.ok()) << game.error();
  ASSERT_EQ(r["positions"].size(), game.value().turns.size() + 1);
  for (const auto& p : r["positions"]) {
    const int ply = p["ply"];
    const rules::Position& pos = ply < static_cast<int>(game.value().turns.size())
                                     ? game.value().before[ply]
                                     : game.value().final;
    EXPECT_EQ(p["board"].get<std::vector<std::string>>(), rules::BoardRows(pos)) << ply;
    EXPECT_EQ(p["pending"], rules::DecisionName(pos.Pending()));
    if (!pos.IsTerminal()) {
      EXPECT_TRUE(rules::ParseTurn(pos, p["best"].get<std::string>()).ok()) << p;
    }
  }
  ExpectScreenshots(r, 2);
}

// Files that are not a usable Veletas export are refused with a message saying why; a good
// export chosen as local files then loads.
TEST_F(Browser, RefusesFilesThatAreNotAVeletasExport) {
  const json good = json::parse(ReadAll(kFixture + "/model/model.json"));
  auto write = [&](const std::string& dir, const std::string& file, const std::string& text) {
    fs::create_directories(root_.Path() / dir);
    std::ofstream(root_.File(dir + "/" + file)) << text;
    return root_.File(dir + "/" + file);
  };
  json feature = good;
  feature["architecture"]["feature_version"] = 99;
  json planes = good;
  planes["input"]["planes"][3]["name"] = "something_else";
  write("other", "model.json", R"({"format": "onnx", "note": "not ours"})");
  const std::string onnx = kFixture + "/model/model.onnx";
  const json cases = json::array(
      {{{"name", "other"}, {"url", "../other/"}},
       {{"name", "feature"}, {"files", {write("feature", "model.json", feature.dump()), onnx}}},
       {{"name", "planes"}, {"files", {write("planes", "model.json", planes.dump()), onnx}}},
       {{"name", "json_only"}, {"files", {kFixture + "/model/model.json"}}},
       {{"name", "garbage"},
        {"files", {kFixture + "/model/model.json", write("garbage", "model.onnx", "not onnx")}}},
       {{"name", "good"}, {"files", {kFixture + "/model/model.json", onnx}}}});
  const json r = Run("bad_models", {{"cases", cases}});
  ASSERT_TRUE(r.contains("messages"));
  const json& m = r["messages"];
  auto expect = [&](const char* name, const char* text) {
    EXPECT_EQ(m[name]["state"], "error") << name;
    EXPECT_NE(m[name]["error"].get<std::string>().find(text), std::string::npos) << m[name];
  };
  expect("other", "is not a Veletas export");
  expect("feature", "feature version 99 is not supported");
  expect("planes", "input planes differ");
  expect("json_only", "choose both files");
  expect("garbage", "could not be loaded by onnxruntime-web");
  EXPECT_EQ(m["good"]["state"], "ready") << m["good"];
}

}  // namespace
}  // namespace veletas::web
