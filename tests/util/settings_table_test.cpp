// Settings tables (util/settings_table.h): the checks a table makes, what it reads from a
// reader, enum names, nested structs.
#include "util/settings_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace veletas::util {
namespace {

enum class Shape { kRound, kSquare };
constexpr Choice<Shape> kShapes[] = {{Shape::kRound, "round"}, {Shape::kSquare, "square"}};

struct Inner {
  double weight = 0.5;
  static std::span<const Field<Inner>> Fields();
  Status Validate() const {
    SettingsCheck c;
    CheckFields(Fields(), *this, c);
    return c.Result();
  }
};
const Field<Inner> kInnerFields[] = {
    RealField("weight", &Inner::weight, 0.0, 1.0, "a weight", Ends::kOpenLow)};
std::span<const Field<Inner>> Inner::Fields() { return kInnerFields; }

struct Outer {
  int count = 3;
  float rate = 0.25f;
  Shape shape = Shape::kRound;
  uint64_t seed = 1;
  std::vector<int> list = {1, 2};
  Inner inner;
  static std::span<const Field<Outer>> Fields();
  Status Validate() const {
    SettingsCheck c;
    CheckFields(Fields(), *this, c);
    return c.Result();
  }
};
const Field<Outer> kOuterFields[] = {
    IntField("count", &Outer::count, 1, 10, "how many"),
    RealField("rate", &Outer::rate, 0.0, 1.0, "a rate"),
    EnumField<&Outer::shape, kShapes>("shape", "round or square"),
    SeedField("seed", &Outer::seed, "a seed"),
    IntListField("list", &Outer::list, 1, 5, "small numbers"),
    NestedField<&Outer::inner>("inner", "the inner settings"),
};
std::span<const Field<Outer>> Outer::Fields() { return kOuterFields; }

// A reader over a flat map of "<path>.<key>" -> text, recording what was read.
class MapReader : public SettingsReader {
 public:
  MapReader(std::map<std::string, std::string>& values, std::vector<std::string>& read,
            std::string path = "")
      : values_(values), read_(read), path_(std::move(path)) {}
  long long Int(const std::string& key, long long fallback, long long lo, long long hi) override {
    const long long v = Has(key) ? std::stoll(Value(key)) : fallback;
    if (v < lo || v > hi) throw std::runtime_error(Path(key) + " out of range");
    return v;
  }
  double Real(const std::string& key, double fallback) override {
    return Has(key) ? std::stod(Value(key)) : fallback;
  }
  float Float(const std::string& key, float fallback) override {
    return Has(key) ? std::stof(Value(key)) : fallback;
  }
  bool Bool(const std::string& key, bool fallback) override {
    return Has(key) ? Value(key) == "true" : fallback;
  }
  std::string String(const std::string& key, const std::string& fallback) override {
    return Has(key) ? Value(key) : fallback;
  }
  std::string Choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& names) override {
    const std::string v = Has(key) ? Value(key) : fallback;
    if (std::find(names.begin(), names.end(), v) == names.end()) {
      throw std::runtime_error(Path(key) + " not a name");
    }
    return v;
  }
  std::vector<long long> IntList(const std::string& key, const std::vector<long long>& fallback,
                                 long long, long long) override {
    return Has(key) ? std::vector<long long>{std::stoll(Value(key))} : fallback;
  }
  std::unique_ptr<SettingsReader> Nested(const std::string& key) override {
    read_.push_back(Path(key) + "/");
    return std::make_unique<MapReader>(values_, read_, Path(key));
  }
  void Check(const Status& status) const override {
    if (!status.ok()) throw std::runtime_error(path_ + ": " + status.error());
  }
  void RejectUnknownKeys() override { read_.push_back(path_ + " done"); }

 private:
  std::string Path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  bool Has(const std::string& key) {
    read_.push_back(Path(key));
    return values_.count(Path(key)) > 0;
  }
  const std::string& Value(const std::string& key) { return values_.at(Path(key)); }
  std::map<std::string, std::string>& values_;
  std::vector<std::string>& read_;
  std::string path_;
};

TEST(SettingsTable, ChecksEachRowInOrder) {
  EXPECT_TRUE(Outer{}.Validate().ok());
  Outer a;
  a.count = 11;
  a.rate = 2;
  EXPECT_EQ(a.Validate().error(),
            "count: 11 is out of range [1, 10]\nrate: 2 is out of range [0, 1]");
  Outer b;
  b.rate = 0.1f;
  b.list = {1, 6};
  EXPECT_EQ(b.Validate().error(), "list: 6 is out of range [1, 5]");
  Outer c;
  c.rate = 1.5f;
  EXPECT_EQ(c.Validate().error(), "rate: 1.5 is out of range [0, 1]");
  Outer d;
  d.inner.weight = 0;
  EXPECT_EQ(d.Validate().error(), "inner.weight: 0 is out of range (0, 1]");
  Outer e;
  e.seed = UINT64_MAX;  // derived seeds use all 64 bits
  EXPECT_TRUE(e.Validate().ok());
}

TEST(SettingsTable, ReadsEveryRowWithTheCurrentValuesAsDefaults) {
  std::map<std::string, std::string> values = {
      {"count", "7"}, {"shape", "square"}, {"list", "4"}, {"inner.weight", "0.75"}};
  std::vector<std::string> read;
  MapReader reader(values, read);
  Outer o;
  ReadFields<Outer>(Outer::Fields(), o, reader);
  EXPECT_EQ(o.count, 7);
  EXPECT_EQ(o.rate, 0.25f);
  EXPECT_EQ(o.shape, Shape::kSquare);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_EQ(o.list, std::vector<int>{4});
  EXPECT_EQ(o.inner.weight, 0.75);
  EXPECT_EQ(read, (std::vector<std::string>{"count", "rate", "shape", "seed", "list", "inner/",
                                            "inner.weight", "inner done"}));
}

TEST(SettingsTable, ANestedMappingIsCheckedByItsOwnValidate) {
  std::map<std::string, std::string> values = {{"inner.weight", "2"}};
  std::vector<std::string> read;
  MapReader reader(values, read);
  Outer o;
  try {
    ReadFields<Outer>(Outer::Fields(), o, reader);
    FAIL() << "read an out-of-range nested value";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "inner: weight: 2 is out of range (0, 1]");
  }
}

TEST(SettingsTable, SeedsAreBoundedWhenRead) {
  std::map<std::string, std::string> values = {{"seed", std::to_string(kMaxConfigSeed + 1)}};
  std::vector<std::string> read;
  MapReader reader(values, read);
  Outer o;
  EXPECT_THROW(ReadFields<Outer>(Outer::Fields(), o, reader), std::runtime_error);
}

TEST(SettingsTable, ChoicesMapValuesAndNamesBothWays) {
  EXPECT_STREQ(ChoiceName<Shape>(kShapes, Shape::kSquare), "square");
  EXPECT_EQ(ChoiceValue<Shape>(kShapes, "round"), Shape::kRound);
  EXPECT_EQ(ChoiceValue<Shape>(kShapes, "oval"), std::nullopt);
  EXPECT_EQ(ChoiceNames<Shape>(kShapes), (std::vector<std::string>{"round", "square"}));
}

}  // namespace
}  // namespace veletas::util
