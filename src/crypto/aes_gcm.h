// AES-256-GCM for secrets at rest (custom tool env values, MCP env values), in GoClaw's format:
//
//   "aes-gcm:" + base64std(nonce[12] || ciphertext || tag[16]), no associated data.
//
// Values GoClaw wrote decrypt here and vice versa. Unlike GoClaw, nothing is ever stored in
// plaintext for lack of a key: callers get an error and must refuse to store.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace clawtools::crypto {

inline constexpr std::string_view kEncryptedPrefix = "aes-gcm:";
inline constexpr std::string_view kKeyEnvVar = "CLAWTOOLS_ENCRYPTION_KEY";

struct Key {
  std::array<unsigned char, 32> bytes{};
};

// Accepts 64 hex digits, base64 (standard or URL-safe, padded or not) of 32 bytes, or a raw
// 32-byte string; surrounding whitespace (a trailing newline in a key file) is ignored.
// kInvalidArgument otherwise; the message never echoes the key.
Expected<Key> ParseKey(std::string_view text);

// The key from $CLAWTOOLS_ENCRYPTION_KEY when set, else from `key_file` when non-empty;
// nullopt when neither is configured. An unreadable file or malformed key is an error.
Expected<std::optional<Key>> LoadKey(const std::string& key_file);

// 64 hex digits of fresh random bytes (a new key to configure).
std::string GenerateKeyHex();

bool IsEncrypted(std::string_view stored);

// Encrypts with a fresh random nonce. Fails only if OpenSSL does.
Expected<std::string> Encrypt(std::string_view plaintext, const Key& key);

// Decrypts a value Encrypt (or GoClaw) produced. kInvalidArgument for a value without the
// prefix or with bad base64; kPermissionDenied when authentication fails (wrong key or
// tampered data).
Expected<std::string> Decrypt(std::string_view stored, const Key& key);

}  // namespace clawtools::crypto
