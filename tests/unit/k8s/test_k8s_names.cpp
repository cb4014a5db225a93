// The rules Kubernetes holds a manifest's values to (k8s.io/apimachinery validation, the
// resource.Quantity grammar, distribution/reference for images), each from its documentation.
#include <gtest/gtest.h>

#include <string>

#include "k8s/k8s_names.hpp"

using namespace cb;

TEST(K8sNames, Dns1035LabelsStartWithALetterAndFit63Characters) {
  EXPECT_TRUE(is_dns1035_label("clusterbench"));
  EXPECT_TRUE(is_dns1035_label("cb-worker-127"));
  EXPECT_TRUE(is_dns1035_label("a"));
  EXPECT_TRUE(is_dns1035_label(std::string(63, 'a')));
  EXPECT_FALSE(is_dns1035_label(std::string(64, 'a')));
  EXPECT_FALSE(is_dns1035_label("1cb")); // DNS-1123 allows it; 1035 does not
  EXPECT_FALSE(is_dns1035_label("Cb"));
  EXPECT_FALSE(is_dns1035_label("cb-"));
  EXPECT_FALSE(is_dns1035_label("c.b"));
  EXPECT_FALSE(is_dns1035_label("c_b"));
  EXPECT_FALSE(is_dns1035_label(""));
  EXPECT_TRUE(is_dns1123_label("1cb"));
  EXPECT_FALSE(is_dns1123_label("-cb"));
}

TEST(K8sNames, SubdomainsLabelValuesAndResourceNames) {
  EXPECT_TRUE(is_dns1123_subdomain("results.team-a"));
  EXPECT_FALSE(is_dns1123_subdomain("results..a"));
  EXPECT_FALSE(is_dns1123_subdomain(std::string(254, 'a')));
  EXPECT_TRUE(is_label_value(""));
  EXPECT_TRUE(is_label_value("Queue_1.a"));
  EXPECT_FALSE(is_label_value("-q"));
  EXPECT_FALSE(is_label_value(std::string(64, 'q')));
  EXPECT_TRUE(is_resource_name("rdma/ib"));
  EXPECT_TRUE(is_resource_name("nvidia.com/hostdev"));
  EXPECT_TRUE(is_resource_name("rdma/rdma_shared_device_a"));
  EXPECT_FALSE(is_resource_name("ib")); // an extended resource carries its domain
  EXPECT_FALSE(is_resource_name("rdma/"));
  EXPECT_FALSE(is_resource_name("RDMA.com/ib")); // the prefix is a lowercase subdomain
  EXPECT_FALSE(is_resource_name("rdma/ib/extra"));
  EXPECT_FALSE(is_resource_name("rdma/ib x"));
}

TEST(K8sNames, QuantitiesAreKubernetesAndPositive) {
  for (const char* good : {"16Gi", "512Mi", "1", "0.5Gi", "1e3", "2E-2", "100m", "1.5G", ".5Ti"})
    EXPECT_TRUE(is_positive_quantity(good)) << good;
  for (const char* bad : {"", "0", "0Gi", "0.0", "-1Gi", "16GB", "16 Gi", "Gi", "1.2.3", "1gi",
                          "16Gi ", "1e", "lots"})
    EXPECT_FALSE(is_positive_quantity(bad)) << bad;
}

TEST(K8sNames, ImageReferencesAsARuntimePullsThem) {
  for (const char* good : {"clusterbench", "ubuntu:22.04", "nvcr.io/nvidia/pytorch:24.01-py3",
                           "registry.local:5000/team/cb:1.0", "localhost/cb",
                           "ghcr.io/org/clusterbench@sha256:"
                           "0123456789abcdef0123456789abcdef"
                           "0123456789abcdef0123456789abcdef",
                           "Registry.Example.com/cb/bench__x:v1"})
    EXPECT_TRUE(is_image_reference(good)) << good;
  for (const char* bad : {"", "Clusterbench", "cb:tag with space", "cb:", "/cb", "cb//x", "Team/cb",
                          "cb@sha256:short", "cb:-tag", "a b", "cb\n"})
    EXPECT_FALSE(is_image_reference(bad)) << bad;
  EXPECT_FALSE(is_image_reference(std::string(256, 'a') + ":1")); // the name is 255 at most
}
