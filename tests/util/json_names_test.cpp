// The JSON nesting bound (util/json_text.h, util/json.h), the JSON field reader and the
// checks of names and paths
// (util/names.h).
#include <gtest/gtest.h>

#include <string>

#include "util/json.h"
#include "util/json_text.h"
#include "util/names.h"

namespace veletas::util {
namespace {

std::string Nested(int depth, const std::string& inside = "") {
  return std::string(static_cast<size_t>(depth), '[') + inside +
         std::string(static_cast<size_t>(depth), ']');
}

TEST(JsonDepth, NestingUpToTheBoundIsAcceptedAndDeeperIsNot) {
  EXPECT_TRUE(CheckJsonDepth(Nested(64)).ok());
  const Status deep = CheckJsonDepth(Nested(65));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.error(), "arrays and objects nest deeper than 64 levels (at byte 64)");
  EXPECT_EQ(deep.exit_code(), 2);
  EXPECT_TRUE(CheckJsonDepth("{\"a\": [1, {\"b\": []}]}", 4).ok());
  EXPECT_FALSE(CheckJsonDepth("{\"a\": [1, {\"b\": []}]}", 3).ok());
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
  const std::string brackets =
      "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
  EXPECT_TRUE(CheckJsonDepth(brackets).ok());
  EXPECT_TRUE(ParseJson(brackets, "x.json").ok());
}

// Defect 1 of issue 13 at the reader: 100,000 nested arrays (200 KB) are refused before
// any parser or printer recurses into them.
TEST(JsonDepth, AHundredThousandLevelsAreAnErrorNamingTheSource) {
  const std::string deep = "{\"format\": " + Nested(100000) + "}";
  const auto parsed = ParseJson(deep, "run/matches/x.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(),
            "run/matches/x.json: arrays and objects nest deeper than 64 levels (at byte 74)");
  EXPECT_EQ(parsed.exit_code(), 2);
}

TEST(JsonDepth, SyntaxErrorsNameTheSource) {
  const auto parsed = ParseJson("{\"a\": ", "state.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().rfind("state.json: not valid JSON: ", 0), 0u) << parsed.error();
}

TEST(JsonExcerpt, ValuesInMessagesStayShort) {
  EXPECT_EQ(JsonExcerpt(nlohmann::json(3)), "3");
  EXPECT_EQ(JsonExcerpt(nlohmann::json("abc")), "\"abc\"");
  EXPECT_EQ(JsonExcerpt(nlohmann::json(std::string(100, 'x')), 10), "\"xxxxxxxxxx\"...");
  EXPECT_EQ(JsonExcerpt(nlohmann::json::parse(Nested(50))), "an array of 1 element");
  EXPECT_EQ(JsonExcerpt(nlohmann::json::parse("{\"a\": 1, \"b\": 2}")), "an object of 2 elements");
}

// Values another process wrote (a worker's heartbeat) are shown only when they are what
// they should be: a float too large for the integer, a string for a number or a number for
// a string gives the fallback, never undefined behaviour or an exception.
TEST(JsonValueOr, GarbageGivesTheFallback) {
  const auto j = ParseJson(
      R"({"pid": 12, "big": 1e300, "neg": -1, "host": "h", "num": 7, "rate": 2.5, "nan": "x"})",
      "heartbeat");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(JsonValueOr<long long>(j.value(), "pid", 0), 12);
  EXPECT_EQ(JsonValueOr<long long>(j.value(), "big", -7), -7);
  EXPECT_EQ(JsonValueOr<unsigned>(j.value(), "neg", 5u), 5u);
  EXPECT_EQ(JsonValueOr<long long>(j.value(), "host", 3), 3);
  EXPECT_EQ(JsonValueOr<std::string>(j.value(), "host", "?"), "h");
  EXPECT_EQ(JsonValueOr<std::string>(j.value(), "num", "?"), "?");
  EXPECT_EQ(JsonValueOr<double>(j.value(), "rate", 0.0), 2.5);
  EXPECT_EQ(JsonValueOr<double>(j.value(), "nan", 1.0), 1.0);
  EXPECT_EQ(JsonValueOr<std::string>(j.value(), "missing", "-"), "-");
  EXPECT_EQ(JsonValueOr<long long>(nlohmann::json::array(), "pid", 4), 4);
}

nlohmann::json Parsed(const std::string& text) {
  auto j = ParseJson(text, "test");
  EXPECT_TRUE(j.ok());
  return j.ok() ? j.value() : nlohmann::json();
}

TEST(JsonFields, ReadsTypedFieldsWithinTheirRanges) {
  const nlohmann::json j =
      Parsed(R"({"n": 7, "u": 18446744073709551615, "x": 2.5, "s": "a", "b": true, "l": []})");
  JsonFields f(j, "");
  EXPECT_EQ(f.Integer<int>("n"), 7);
  EXPECT_EQ(f.Integer<uint64_t>("u"), 18446744073709551615ULL);
  EXPECT_EQ(f.Int("n", 1, 10), 7);
  EXPECT_EQ(f.Number("x"), 2.5);
  EXPECT_EQ(f.Real("x", 0, 3), 2.5);
  EXPECT_EQ(f.String("s"), "a");
  EXPECT_TRUE(f.Bool("b"));
  EXPECT_NE(f.Array("l"), nullptr);
  EXPECT_EQ(f.NumberOr("absent", -1.0), -1.0);
  EXPECT_EQ(f.IntegerOr<int>("n", 0), 7);
  EXPECT_TRUE(f.ok()) << f.error();
  EXPECT_TRUE(f.status().ok());
}

// Each wrong field gives an error naming the key by its path and what was expected.
TEST(JsonFields, TheFirstErrorNamesTheKeyAndWhatWasExpected) {
  const nlohmann::json j = Parsed(R"({"big": 1e300, "neg": -1, "s": 3, "n": 12, "t": "x"})");
  auto first_error = [&](auto read) {
    JsonFields f(j, "gate");
    read(f);
    f.String("neg");  // a later error does not replace the first
    return f.error();
  };
  EXPECT_EQ(first_error([](JsonFields& f) { f.Integer<int>("big"); }),
            "gate.big: expected an integer in [-2147483648, 2147483647], got 1e+300");
  EXPECT_EQ(first_error([](JsonFields& f) { f.Integer<unsigned>("neg"); }),
            "gate.neg: expected an integer in [0, 4294967295], got -1");
  EXPECT_EQ(first_error([](JsonFields& f) { f.Int("n", 1, 10); }),
            "gate.n: 12 is out of range [1, 10]");
  EXPECT_EQ(first_error([](JsonFields& f) { f.String("s"); }), "gate.s: expected a string, got 3");
  EXPECT_EQ(first_error([](JsonFields& f) { f.Number("missing"); }),
            "gate.missing: missing (expected a number)");
  EXPECT_EQ(first_error([](JsonFields& f) { f.Bool("n"); }),
            "gate.n: expected true or false, got 12");
  EXPECT_EQ(first_error([](JsonFields& f) { f.NumberOr("t", 0); }),
            "gate.t: expected a finite number, got \"x\"");
  JsonFields not_object(nlohmann::json::array(), "");
  EXPECT_EQ(not_object.error(), "top level: expected a JSON object, got array");
  const Status s = not_object.status("f.json: ");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "f.json: top level: expected a JSON object, got array");
  EXPECT_EQ(s.exit_code(), 2);
}

TEST(JsonFields, ArrayElementsAreNamedByTheirIndex) {
  const nlohmann::json j = Parsed(R"({"games": [1, 2.5]})");
  JsonFields f(j, "");
  const nlohmann::json* games = f.Array("games");
  ASSERT_NE(games, nullptr);
  EXPECT_EQ(f.IntegerOf<int>((*games)[0], "games[0]"), 1);
  EXPECT_EQ(f.IntegerOf<int>((*games)[1], "games[1]"), 0);
  EXPECT_EQ(f.error(), "games[1]: expected an integer in [-2147483648, 2147483647], got 2.5");
}

TEST(Names, PlainNamesAreAcceptedAndPathsAreNot) {
  EXPECT_TRUE(ValidateName("samples", "prefix").ok());
  EXPECT_TRUE(ValidateName("gen_3-vs-uct_1000.r2", "match name").ok());
  EXPECT_EQ(ValidateName("../escaped", "sample file prefix").error(),
            "sample file prefix \"../escaped\" starts with '.'");
  EXPECT_EQ(ValidateName("a/b", "match name").error(),
            "match name \"a/b\" has '/' (allowed: letters, digits, '_', '-', '.')");
  EXPECT_EQ(ValidateName("", "match name").error(), "match name is empty");
  EXPECT_TRUE(ValidateName(std::string(200, 'a'), "x").ok());
  EXPECT_NE(
      ValidateName(std::string(201, 'a'), "x").error().find("is longer than 200 characters (201)"),
      std::string::npos);
  EXPECT_EQ(
      ValidateName(std::string(65, 'a'), "worker id", 64).error(),
      "worker id \"" + std::string(65, 'a').substr(0, 80) + "\" is longer than 64 characters (65)");
  EXPECT_EQ(ValidateName("caf\xC3\xA9", "x").error(),
            "x \"caf\\xC3\\xA9\" has '\\xC3' (allowed: letters, digits, '_', '-', '.')");
}

TEST(Names, Utf8IsCheckedStrictly) {
  EXPECT_TRUE(IsValidUtf8("plain/path.ckpt"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9/\xE2\x82\xAC/\xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("g\xE9.ckpt"));        // Latin-1
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));          // cut short
}

// Defect 5 of issue 13 at the check: the path is refused up front with a clear message.
TEST(Names, APathThatIsNotUtf8IsBadInputNamingItsByte) {
  EXPECT_TRUE(CheckUtf8Path("runs/caf\xC3\xA9", "--run").ok());
  const Status bad = CheckUtf8Path("d5/g\xE9.ckpt", "player A checkpoint");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(),
            "player A checkpoint \"d5/g\\xE9.ckpt\": the path is not valid UTF-8 (byte 0xE9 at "
            "offset 4), so it cannot be stored in the run's JSON files; rename it");
  EXPECT_EQ(bad.exit_code(), 2);
}

}  // namespace
}  // namespace veletas::util
