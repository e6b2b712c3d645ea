#include "crypto/aes_gcm.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>

namespace clawtools::crypto {
namespace {

constexpr size_t kNonceSize = 12;
constexpr size_t kTagSize = 16;

struct CtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

// Standard or URL-safe alphabet, padding optional. nullopt on any other byte.
std::optional<std::string> Base64Decode(std::string_view in) {
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  if (in.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(in.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int d = Base64Digit(c);
    if (d < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::string Base64Encode(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s : {18, 12, 6, 0}) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  if (size_t rest = in.size() - i; rest > 0) {
    uint32_t v = uint8_t(in[i]) << 16;
    if (rest == 2) v |= uint8_t(in[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' ||
                        s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

Key FromBytes(std::string_view b) {
  Key k;
  for (size_t i = 0; i < k.bytes.size(); ++i) k.bytes[i] = static_cast<unsigned char>(b[i]);
  return k;
}

}  // namespace

Expected<Key> ParseKey(std::string_view text) {
  // Raw first: a 32-byte key may happen to look like anything, and whitespace is key material.
  if (text.size() == 32) return FromBytes(text);
  text = Trim(text);
  if (text.size() == 64) {
    std::string bytes;
    bool ok = true;
    for (size_t i = 0; i < 64 && ok; i += 2) {
      int hi = HexDigit(text[i]), lo = HexDigit(text[i + 1]);
      ok = hi >= 0 && lo >= 0;
      bytes.push_back(static_cast<char>(hi * 16 + lo));
    }
    if (ok) return FromBytes(bytes);
  }
  if (text.size() == 32) return FromBytes(text);
  if (text.size() == 43 || text.size() == 44) {
    if (auto b = Base64Decode(text); b && b->size() == 32) return FromBytes(*b);
  }
  return Fail(ErrorCode::kInvalidArgument,
              "encryption key must be 64 hex digits, base64 of 32 bytes, or 32 raw bytes");
}

Expected<std::optional<Key>> LoadKey(const std::string& key_file) {
  if (const char* env = std::getenv(std::string(kKeyEnvVar).c_str()); env && *env) {
    auto k = ParseKey(env);
    if (!k) return Fail(ErrorCode::kInvalidArgument,
                        std::string(kKeyEnvVar) + ": " + k.error().for_model);
    return std::optional<Key>(*k);
  }
  if (key_file.empty()) return std::optional<Key>();
  std::ifstream in(key_file, std::ios::binary);
  if (!in) return Fail(ErrorCode::kUnavailable, "cannot read the encryption key file",
                       "cannot read " + key_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto k = ParseKey(text);
  if (!k) return Fail(ErrorCode::kInvalidArgument, "encryption key file: " + k.error().for_model,
                      key_file + ": " + k.error().for_model);
  return std::optional<Key>(*k);
}

std::string GenerateKeyHex() {
  unsigned char b[32];
  if (RAND_bytes(b, sizeof(b)) != 1) std::abort();  // no entropy: nothing safe to return
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

bool IsEncrypted(std::string_view stored) { return stored.starts_with(kEncryptedPrefix); }

Expected<std::string> Encrypt(std::string_view plaintext, const Key& key) {
  std::string buf(kNonceSize + plaintext.size() + kTagSize, '\0');
  auto* out = reinterpret_cast<unsigned char*>(buf.data());
  if (RAND_bytes(out, kNonceSize) != 1) return Fail(ErrorCode::kInternal, "no random nonce");
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  if (!ctx ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.bytes.data(), out) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out + kNonceSize, &len,
                        reinterpret_cast<const unsigned char*>(plaintext.data()),
                        static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), out + kNonceSize + len, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagSize,
                          out + kNonceSize + plaintext.size()) != 1) {
    return Fail(ErrorCode::kInternal, "encryption failed");
  }
  return std::string(kEncryptedPrefix) + Base64Encode(buf);
}

Expected<std::string> Decrypt(std::string_view stored, const Key& key) {
  if (!IsEncrypted(stored)) return Fail(ErrorCode::kInvalidArgument, "value is not encrypted");
  auto raw = Base64Decode(stored.substr(kEncryptedPrefix.size()));
  if (!raw || raw->size() < kNonceSize + kTagSize)
    return Fail(ErrorCode::kInvalidArgument, "malformed encrypted value");
  const auto* in = reinterpret_cast<const unsigned char*>(raw->data());
  const size_t n = raw->size() - kNonceSize - kTagSize;
  std::string plain(n, '\0');
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  int len = 0;
  bool ok = ctx &&
            EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key.bytes.data(), in) == 1 &&
            EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &len,
                              in + kNonceSize, static_cast<int>(n)) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagSize,
                                const_cast<unsigned char*>(in + kNonceSize + n)) == 1 &&
            EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + len,
                                &len) == 1;
  if (!ok) return Fail(ErrorCode::kPermissionDenied, "decrypt failed: invalid key or corrupted data");
  return plain;
}

}  // namespace clawtools::crypto
