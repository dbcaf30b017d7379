// Checks that ranks' points form one decomposition (comm/local_fields.hpp).
#include <icondiff/comm/local_fields.hpp>

#include <fmt/format.h>

namespace icondiff {

void check_rank_points(const std::vector<const RankPoints*>& parts) {
  const auto fail = [](const std::string& problem) {
    throw InvalidArgument("the ranks' parts do not form one decomposition: " + problem);
  };
  if (parts.empty()) fail("no parts");
  const RankPoints& first = *parts.front();
  if (static_cast<std::size_t>(first.num_ranks) != parts.size())
    fail(fmt::format("{} parts of a decomposition into {} ranks", parts.size(), first.num_ranks));
  std::vector<int> seen_rank(parts.size(), 0);
  for (const RankPoints* p : parts) {
    if (p->num_ranks != first.num_ranks || p->global_size != first.global_size)
      fail(
          fmt::format("rank {} has {} ranks and {}/{}/{} global cells/edges/vertices, rank {} {} "
                      "and {}/{}/{}",
                      p->rank, p->num_ranks, p->global_size[0], p->global_size[1],
                      p->global_size[2], first.rank, first.num_ranks, first.global_size[0],
                      first.global_size[1], first.global_size[2]));
    if (p->rank < 0 || p->rank >= first.num_ranks)
      fail(fmt::format("rank {} is outside [0, {})", p->rank, first.num_ranks));
    if (seen_rank[static_cast<std::size_t>(p->rank)]++ > 0)
      fail(fmt::format("rank {} appears twice", p->rank));
  }
  for (Location location : all_locations) {
    const int l = static_cast<int>(location);
    const auto n = static_cast<std::size_t>(first.global_size[l]);
    std::vector<int> owner(n, -1);
    for (const RankPoints* p : parts) {
      const auto& ids = p->global_index[l];
      const auto& owners = p->owner_rank[l];
      if (owners.size() != ids.size())
        fail(fmt::format("rank {} has {} {} global indices but {} owner ranks", p->rank, ids.size(),
                         to_string(location), owners.size()));
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= n)
          fail(fmt::format("rank {}: {} {} has the global index {}, outside [0, {})", p->rank,
                           to_string(location), i, ids[i], n));
        if (owners[i] < 0 || owners[i] >= first.num_ranks)
          fail(fmt::format("rank {}: {} {} (global {}) has the owner rank {}, outside [0, {})",
                           p->rank, to_string(location), i, ids[i], owners[i], first.num_ranks));
        if (owners[i] != p->rank) continue;
        int& o = owner[static_cast<std::size_t>(ids[i])];
        if (o >= 0)
          fail(fmt::format("global {} {} is owned by rank {} and rank {}", to_string(location),
                           ids[i], o, p->rank));
        o = p->rank;
      }
    }
    for (std::size_t g = 0; g < n; ++g)
      if (owner[g] < 0)
        fail(fmt::format("global {} {} is owned by no rank", to_string(location), g));
  }
}

}  // namespace icondiff
