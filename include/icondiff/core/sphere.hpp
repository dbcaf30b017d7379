// Vector algebra on the unit sphere, shared by the grid generator, the grid geometry, the
// coefficient factories, the test cases and the output. Host code. It is pure math (no grid, no
// Kokkos), so it lives in core where every layer may use it. Local vector bases follow ICON's
// gvec2cvec/cvec2gvec (mo_math_utilities): east = (-sin lon, cos lon, 0), north = (-sin lat cos
// lon, -sin lat sin lon, cos lat), defined from (lon, lat) so they are well defined at the poles
// too.
#pragma once

#include <cmath>

namespace icondiff::sphere {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

inline Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3 operator-(Vec3 a, Vec3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3 operator*(double s, Vec3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
inline double dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// a · (b × c): positive when (a, b, c) are counter-clockwise seen from outside the sphere, and
/// the side of the great circle through a and b on which c lies.
inline double triple_product(Vec3 a, Vec3 b, Vec3 c) {
  return dot(a, cross(b, c));
}
inline double norm(Vec3 a) {
  return std::sqrt(dot(a, a));
}
inline Vec3 normalize(Vec3 a) {
  return (1.0 / norm(a)) * a;
}

/// Unit vector of (lon, lat) in radians.
inline Vec3 to_cartesian(double lon, double lat) {
  return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}

inline double longitude(Vec3 p) {
  return std::atan2(p.y, p.x);
}
inline double latitude(Vec3 p) {
  return std::atan2(p.z, std::hypot(p.x, p.y));
}

inline Vec3 east_at(double lon, double /*lat*/) {
  return {-std::sin(lon), std::cos(lon), 0.0};
}
inline Vec3 north_at(double lon, double lat) {
  return {-std::sin(lat) * std::cos(lon), -std::sin(lat) * std::sin(lon), std::cos(lat)};
}

/// (east, north) components at (lon, lat) -> Cartesian vector (ICON gvec2cvec).
inline Vec3 local_to_cartesian(double east, double north, double lon, double lat) {
  return east * east_at(lon, lat) + north * north_at(lon, lat);
}

/// Cartesian vector -> (east, north) components at (lon, lat) (ICON cvec2gvec).
inline void cartesian_to_local(Vec3 v, double lon, double lat, double& east, double& north) {
  east = dot(v, east_at(lon, lat));
  north = dot(v, north_at(lon, lat));
}

/// Great-circle angle between two unit vectors (accurate for small and large angles).
inline double arc_length(Vec3 a, Vec3 b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

/// Area of the spherical triangle (a, b, c) on the unit sphere (Eriksson's formula).
inline double triangle_area(Vec3 a, Vec3 b, Vec3 c) {
  return 2.0 * std::fabs(std::atan2(dot(a, cross(b, c)), 1.0 + dot(a, b) + dot(b, c) + dot(c, a)));
}

/// Circumcentre of the spherical triangle (a, b, c), on the same side as the triangle.
inline Vec3 circumcentre(Vec3 a, Vec3 b, Vec3 c) {
  Vec3 n = normalize(cross(b - a, c - a));
  return dot(n, a + b + c) < 0 ? -1.0 * n : n;
}

}  // namespace icondiff::sphere
