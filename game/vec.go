package game

import "math"

// Vec is a point or a velocity in playfield units. Y grows downwards.
type Vec struct{ X, Y float64 }

func (v Vec) add(u Vec) Vec           { return Vec{v.X + u.X, v.Y + u.Y} }
func (v Vec) sub(u Vec) Vec           { return Vec{v.X - u.X, v.Y - u.Y} }
func (v Vec) scale(k float64) Vec     { return Vec{v.X * k, v.Y * k} }
func (v Vec) dot(u Vec) float64       { return v.X*u.X + v.Y*u.Y }
func (v Vec) len() float64            { return math.Hypot(v.X, v.Y) }
func (v Vec) rotate(s, c float64) Vec { return Vec{v.X*c - v.Y*s, v.X*s + v.Y*c} }

// polar is the vector of length r pointing at angle a.
func polar(a, r float64) Vec {
	s, c := math.Sincos(a)
	return Vec{c * r, s * r}
}

// wrap brings p back onto the torus [0,Width) × [0,Height).
func wrap(p Vec) Vec { return Vec{wrap1(p.X, Width), wrap1(p.Y, Height)} }

func wrap1(x, size float64) float64 {
	if x >= 0 && x < size {
		return x
	}
	x -= size * math.Floor(x/size)
	if x >= size { // rounding of a tiny negative x
		x = 0
	}
	return x
}

// delta is the shortest vector from a to b on the torus.
func delta(a, b Vec) Vec { return Vec{delta1(b.X-a.X, Width), delta1(b.Y-a.Y, Height)} }

func delta1(d, size float64) float64 {
	switch {
	case d > size/2:
		return d - size
	case d < -size/2:
		return d + size
	}
	return d
}

// normAngle brings a into [-π, π).
func normAngle(a float64) float64 {
	if a >= -math.Pi && a < math.Pi {
		return a
	}
	a = math.Mod(a+math.Pi, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a - math.Pi
}
