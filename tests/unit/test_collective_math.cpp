#include <gtest/gtest.h>

#include "core/collective_math.hpp"
#include "core/error.hpp"

using namespace cb;

TEST(BusBw, FactorsMatchNcclTestsForOneToSixteenRanks) {
  for (int n = 1; n <= 16; ++n) {
    const double nd = n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_reduce, n), 2 * (nd - 1) / nd) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_gather, n), (nd - 1) / nd) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce_scatter, n), (nd - 1) / nd) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::alltoall, n), (nd - 1) / nd) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::broadcast, n), 1.0) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce, n), 1.0) << n;
    EXPECT_DOUBLE_EQ(busbw_factor(Collective::sendrecv, n), 1.0) << n;
  }
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_reduce, 8), 1.75);
}

TEST(BusBw, NamesRoundTripAndUnknownIsInputError) {
  for (auto c :
       {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
        Collective::broadcast, Collective::reduce, Collective::alltoall, Collective::sendrecv}) {
    EXPECT_EQ(collective_from_name(collective_name(c)), c);
  }
  EXPECT_THROW(collective_from_name("allreduce"), InputError);
}

TEST(Gbps, BytesPerSecondInDecimalGigabytes) {
  EXPECT_DOUBLE_EQ(gbps(2e9, 1.0), 2.0);
  EXPECT_DOUBLE_EQ(gbps(1e9, 0.0), 0.0);
}
