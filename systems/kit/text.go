package kit

import "strconv"

// A describe text that states a number the model uses formats it from the
// constant or the table the model reads (fmt.Sprintf with these), so that
// the text cannot drift from the code.

// Num writes an integer as describe texts write numbers: a negative one
// with the minus sign (−10).
func Num(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

// Signed writes an integer with its sign, as a modifier: +5, −1, +0.
func Signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return Num(n)
}
