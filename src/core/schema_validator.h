// JSON Schema validation for tool arguments and the config file.
//
// Supports the draft 2020-12 subset that tool schemas use: type (incl. "integer" for
// integral numbers and type arrays), properties, required, additionalProperties (bool or
// schema), enum, const, items, prefixItems-free arrays (minItems, maxItems, uniqueItems),
// minLength/maxLength (in code points), pattern (RE2, linear time), minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, allOf, anyOf, oneOf, not.
// Unknown keywords (description, default, format, $schema, examples, ...) are ignored.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"

namespace clawtools {

struct SchemaViolation {
  std::string path;     // "args.items[2].name"
  std::string message;  // "expected string, got number"
};

// Validates `value` against `schema`; `root_name` prefixes every path ("args", "config").
// Returns every violation found (capped at 32), empty when valid.
std::vector<SchemaViolation> ValidateSchema(const Json& schema, const Json& value,
                                            std::string_view root_name = "args");

// "args.path: required property missing; args.limit: expected integer, got string"
std::string FormatViolations(const std::vector<SchemaViolation>& violations);

// The JSON type name as JSON Schema spells it ("integer" for integral numbers).
std::string JsonTypeName(const Json& value);

}  // namespace clawtools
