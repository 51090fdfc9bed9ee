;;; Syntax corner cases that the oracle test reads with SBCL and with the Go reader.
(1 1. -0 +5 1/2 4/2 -6/4 #x10 #XfF #b-101 #o777 #36rZZ #3r12 #x1/2 123456789012345678901234567890)
(1.5 1e3 1E3 1d3 1.5f0 1.5s0 1.5l0 .5 -.5e-2 1.e5 +1.0 6.02d23)
(1+ 1- + - a.b ..a a..b 1/ /2 1e 1.2.3 -a +.e5 1a 0x10)
(#\a #\A #\Space #\space #\SPACE #\( #\) #\; #\" #\\ #\' #\` #\, #\# #\| #\Newline #\Tab #\Nul #\Rubout #\Page #\Return #\Backspace #\Linefeed #\Esc #\U+41 #\é)
("" "plain" "a\"b" "back\\slash" "\a\b" "multi
line" "tab	in" "é ü")
(|Foo Bar| a\bc \1 |a|b|c| ab\:c foo\ bar || |\|| |a\\b| éclair CamelCase)
(:foo ::bar :|Mixed| #:g #:|g2| cl:car cl::car common-lisp:cons cl-user::%foo sb-impl::*default-external-format*)
(a 'b '(c d) #'e #'(lambda (x) x) '() () (quote x) (function y))
`(a ,b ,@c ,.d (e `(f ,,g ,',h)) #(1 ,i))
(#(1 (2) "x") #() #*0101 #* #0A5 #2A((1 2) (3 4)) #p"/tmp/x" #c(1 2))
(a #+sbcl b #-sbcl c #+(and sbcl (not ccl)) d #+(or) e #-(or) f #+nil #+nil g h i)
(#+alexandria::sequence-emptyp q #-alexandria::sequence-emptyp r #+(or sbcl ccl) j #+(and) k #-(and) l #+(:not :sbcl) m #+asdf3.1 n #+sb-unicode o #+x86-64 p)
(a #| block #| nested |# comment |# b ; line comment (
 c)
((a . b) (a b . (c d)) (a . nil) (a . ()) (a b . c))
(a;comment right after a symbol
b"str"c'd)
(-1/2 +.5 1.5e+3 #b1/10 #o-7 #x+F (1 . 2) (a . #+nil b c) a. .a +. -1. \(foo '#:foo #'(setf foo) #*)
(#+nil #z x y #-(and) (#? ignored) z)
#+nil (this is skipped entirely #z)
#-sbcl (neither)
last
