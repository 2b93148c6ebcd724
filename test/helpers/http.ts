/** The JSON body of a response, loosely typed: tests assert its shape. */
export const body = async (res: Response): Promise<any> => res.json();
