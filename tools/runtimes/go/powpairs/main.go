// Command powpairs prints math.Pow(x, y) for a fixed set of (x, y) pairs, one line each:
// "X Y POW TEXT" with X, Y, POW the float64 bits in hex and TEXT strconv.FormatFloat(POW, 'g',
// -1, 64). tests/fixtures/go-math-pow.txt.gz is its output under Go 1.19 on amd64 (FMA);
// tests/reference/test_gomath.py checks reference/_gomath.py and tools/oracle.py against it.
//
//	go run tools/runtimes/go/powpairs/main.go | gzip -9 -n > tests/fixtures/go-math-pow.txt.gz
package main

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
)

func emit(x, y float64) {
	r := math.Pow(x, y)
	fmt.Printf("%x %x %x %s\n", math.Float64bits(x), math.Float64bits(y), math.Float64bits(r),
		strconv.FormatFloat(r, 'g', -1, 64))
}

func main() {
	rnd := rand.New(rand.NewSource(6006))
	// The kit's use: 0.5 ** (age_days / half_life).
	for i := 0; i < 1500; i++ {
		emit(0.5, rnd.Float64()*float64(rnd.Intn(1200)+1))
	}
	for i := 1; i <= 400; i++ {
		emit(0.5, float64(i)/64+float64(i)/1000)
	}
	// Other bases and exponents, negative bases with integer and fractional exponents.
	for i := 0; i < 1000; i++ {
		x := rnd.Float64() * math.Pow(10, float64(rnd.Intn(8)-4))
		emit(x, (rnd.Float64()-0.5)*float64(rnd.Intn(400)+1))
	}
	for i := 0; i < 100; i++ {
		x := -rnd.Float64() * 10
		emit(x, float64(rnd.Intn(60)-30))
		emit(x, rnd.Float64()*10)
	}
	// The special cases of pow.go's doc comment, and the edges of Exp, Log and Ldexp.
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 1.5, 0.75,
		math.Inf(1), math.Inf(-1), math.NaN(), 1e-310, 5e-324, 1e308, 1 << 62, 1 << 63, 1 << 64}
	for _, x := range specials {
		for _, y := range specials {
			emit(x, y)
		}
	}
}
