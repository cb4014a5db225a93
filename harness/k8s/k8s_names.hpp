#pragma once
// What the Kubernetes API server and the container runtime accept, for the values `clusterbench
// k8s` writes into a manifest: a value they would refuse is refused here, with one line, before
// anything is applied (k8s.io/apimachinery/pkg/util/validation and resource.Quantity, and the
// image reference grammar of distribution/reference that the runtime parses).
#include <string_view>

namespace cb {

// RFC 1035 label: 1 to 63 of [a-z0-9-], starting with a letter, ending alphanumeric. Service names
// and so an MPIJob's pod host names ("<name>-worker-<i>") must be.
bool is_dns1035_label(std::string_view text);
// RFC 1123 label: the same, but it may start with a digit (namespaces).
bool is_dns1123_label(std::string_view text);
// RFC 1123 subdomain: dot-separated labels, 253 characters at most.
bool is_dns1123_subdomain(std::string_view text);
// A label value: empty, or up to 63 of [A-Za-z0-9-_.] beginning and ending alphanumeric.
bool is_label_value(std::string_view text);
// An extended resource name ("nvidia.com/gpu", "rdma/ib"): a DNS subdomain prefix, '/', and a
// name of up to 63 of [A-Za-z0-9-_.] beginning and ending alphanumeric.
bool is_resource_name(std::string_view text);
// A resource quantity greater than zero: digits with an optional fraction, then a binary suffix
// (Ki Mi Gi Ti Pi Ei), a decimal one (m k M G T P E) or an exponent (e3, E-2).
bool is_positive_quantity(std::string_view text);
// An image reference a container runtime pulls: [host[:port]/]path[:tag][@digest], its path
// components lowercase, at most 255 characters before the tag.
bool is_image_reference(std::string_view text);

} // namespace cb
