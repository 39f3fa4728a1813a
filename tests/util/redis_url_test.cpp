// Parsing a cluster's Redis URL (util/redis_url.h).
#include "util/redis_url.h"

#include <gtest/gtest.h>

namespace veletas::util {
namespace {

TEST(RedisUrl, ParsesHostAndPortAndRefusesCredentials) {
  auto a = ParseRedisUrl("redis://10.0.0.5:6390");
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(a.value().host, "10.0.0.5");
  EXPECT_EQ(a.value().port, 6390);
  auto b = ParseRedisUrl("redis://learner.lan");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.value().port, 6379);
  auto c = ParseRedisUrl("redis://[::1]:7000/");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c.value().host, "::1");
  EXPECT_EQ(c.value().port, 7000);
  for (const char* bad : {"localhost:6379", "redis://", "redis://h:0", "redis://h:70000",
                          "redis://h:x", "redis://h:6379/0", "http://h"}) {
    EXPECT_FALSE(ParseRedisUrl(bad).ok()) << bad;
  }
  auto creds = ParseRedisUrl("redis://user:secret@h:6379");
  ASSERT_FALSE(creds.ok());
  EXPECT_EQ(creds.error().find("secret"), std::string::npos) << "the password is echoed";
  EXPECT_NE(ParseRedisUrl("rediss://h").error().find("TLS"), std::string::npos);
}

}  // namespace
}  // namespace veletas::util
