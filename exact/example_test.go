package exact_test

import (
	"fmt"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

func Example() {
	d6 := mechanics.D(6)
	sum3, _, _ := exact.Eval(mechanics.Repeat{X: d6, N: 3})
	fmt.Printf("3d6: P(10) = %.4f, P(≥ 15) = %.4f, mean %.1f\n", sum3.Prob(10), sum3.Survival(14), sum3.Mean())
	kh, _, _ := exact.Eval(mechanics.Keep{Die: d6, N: 4, K: 3, Highest: true})
	fmt.Printf("4d6 keep 3: P(18) = %.4f, mean %.4f, median %d\n", kh.Prob(18), kh.Mean(), kh.Quantile(0.5))
	// Output:
	// 3d6: P(10) = 0.1250, P(≥ 15) = 0.0926, mean 10.5
	// 4d6 keep 3: P(18) = 0.0162, mean 12.2446, median 12
}
