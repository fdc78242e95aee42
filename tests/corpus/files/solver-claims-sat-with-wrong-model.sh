echo "s SATISFIABLE"
echo "v 1 -2 -3 0"
exit 10
