#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "crypto/aes_gcm.h"

namespace clawtools::crypto {
namespace {

constexpr char kHexKey[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

TEST(Crypto, RoundTripInGoClawFormat) {
  auto key = ParseKey(kHexKey);
  ASSERT_TRUE(key.has_value());
  auto enc = Encrypt("hunter2-secret-value", *key);
  ASSERT_TRUE(enc.has_value());
  EXPECT_TRUE(enc->starts_with("aes-gcm:"));
  EXPECT_EQ(enc->find("hunter2"), std::string::npos);
  // base64 of 12 + 20 + 16 bytes.
  EXPECT_EQ(enc->size(), 8u + 64u);
  auto dec = Decrypt(*enc, *key);
  ASSERT_TRUE(dec.has_value());
  EXPECT_EQ(*dec, "hunter2-secret-value");
  // A fresh nonce each time.
  EXPECT_NE(*Encrypt("hunter2-secret-value", *key), *enc);
}

TEST(Crypto, DecryptsAValueWrittenByAnotherImplementation) {
  // Python cryptography's AESGCM, laid out as GoClaw's aes.go writes it: nonce (bytes 100..111)
  // || ciphertext || tag, standard base64.
  auto key = ParseKey(kHexKey);
  ASSERT_TRUE(key.has_value());
  auto dec = Decrypt("aes-gcm:ZGVmZ2hpamtsbW5vIG6wEhybZLNNBzyavxFHiyOuc28TH3mU8gFeURf52VkCm49L",
                     *key);
  ASSERT_TRUE(dec.has_value()) << dec.error().for_model;
  EXPECT_EQ(*dec, "hunter2-secret-value");
}

TEST(Crypto, KeyFormats) {
  auto hex = ParseKey(kHexKey);
  auto b64 = ParseKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
  auto b64_nopad = ParseKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8\n");
  std::string raw_text;
  for (int i = 0; i < 32; ++i) raw_text.push_back(static_cast<char>(i));
  auto raw = ParseKey(raw_text);
  ASSERT_TRUE(hex && b64 && b64_nopad && raw);
  EXPECT_EQ(hex->bytes, b64->bytes);
  EXPECT_EQ(hex->bytes, b64_nopad->bytes);
  EXPECT_EQ(hex->bytes, raw->bytes);
  EXPECT_TRUE(ParseKey("0123456789abcdef0123456789abcdef").has_value());  // 32 raw chars
  for (const char* bad : {"", "short", "zz02030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                          "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd"}) {
    auto k = ParseKey(bad);
    EXPECT_FALSE(k.has_value()) << bad;
  }
}

TEST(Crypto, WrongKeyAndTamperingFail) {
  auto key = ParseKey(kHexKey);
  auto other = ParseKey(GenerateKeyHex());
  ASSERT_TRUE(key && other);
  auto enc = Encrypt("value", *key);
  ASSERT_TRUE(enc.has_value());
  EXPECT_EQ(Decrypt(*enc, *other).error().code, ErrorCode::kPermissionDenied);
  std::string tampered = *enc;
  tampered[20] = tampered[20] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(Decrypt(tampered, *key).has_value());
  EXPECT_FALSE(Decrypt("plaintext", *key).has_value());
  EXPECT_FALSE(Decrypt("aes-gcm:!!", *key).has_value());
}

TEST(Crypto, LoadKeyFromEnvThenFile) {
  auto file = std::filesystem::temp_directory_path() / ("ct-key-" + std::to_string(getpid()));
  std::ofstream(file) << kHexKey << "\n";
  ::unsetenv("CLAWTOOLS_ENCRYPTION_KEY");
  auto none = LoadKey("");
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->has_value());
  auto from_file = LoadKey(file.string());
  ASSERT_TRUE(from_file.has_value() && from_file->has_value());
  ::setenv("CLAWTOOLS_ENCRYPTION_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", 1);
  auto from_env = LoadKey("/nonexistent");
  ::unsetenv("CLAWTOOLS_ENCRYPTION_KEY");
  ASSERT_TRUE(from_env.has_value() && from_env->has_value());
  EXPECT_EQ((*from_env)->bytes, (*from_file)->bytes);
  EXPECT_FALSE(LoadKey("/nonexistent/key").has_value());
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace clawtools::crypto
